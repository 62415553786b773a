package interrupt

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A real SIGTERM cancels Finishing's context and the process lives on; a
// second SIGTERM kills it (run in a child process: the second signal is
// fatal).
func TestFinishing(t *testing.T) {
	if os.Getenv("KUBEPLAN_FINISHING_CHILD") == "1" {
		ctx, stop := Finishing()
		defer stop()
		_ = syscall.Kill(syscall.Getpid(), syscall.SIGTERM)
		select {
		case <-ctx.Done():
			fmt.Println("first signal: cancelled")
		case <-time.After(5 * time.Second):
			fmt.Println("first signal: not cancelled")
			return
		}
		time.Sleep(500 * time.Millisecond) // the default handling is back
		_ = syscall.Kill(syscall.Getpid(), syscall.SIGTERM)
		time.Sleep(5 * time.Second)
		fmt.Println("second signal: still alive")
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestFinishing$", "-test.count=1")
	cmd.Env = append(os.Environ(), "KUBEPLAN_FINISHING_CHILD=1")
	out, err := cmd.Output()
	var ee *exec.ExitError
	if !strings.Contains(string(out), "first signal: cancelled") || strings.Contains(string(out), "still alive") || !errors.As(err, &ee) {
		t.Fatalf("child said %q, %v", out, err)
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
		t.Errorf("child ended with %v, want killed by SIGTERM", err)
	}
}
