package main

import (
	"bufio"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/internal/testkube"
)

// The schedule loop, run as a real process: it reconciles at the interval,
// follows new commits, and exits 0 on SIGTERM after finishing its run.
func TestIntegrationIntervalLoop(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	bin := filepath.Join(t.TempDir(), "kubeplan")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("building kubeplan: %v\n%s", err, out)
	}
	g := newGitRepo(t)
	first := g.commit("settings", map[string]string{"settings.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  currency: EUR\n"})
	cmd := exec.Command(bin, "apply", "--kubeconfig", c.AdminKubeconfig(), "-n", ns, "--applyset", "configmap/set",
		"--source", g.bare, "--ref", "main", "--interval", "1s")
	cmd.Env = append(cmd.Environ(), "KUBEPLAN_CACHE_DIR="+t.TempDir())
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	waitFor := func(want string) {
		t.Helper()
		deadline := time.After(60 * time.Second)
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("kubeplan exited before printing %q", want)
				}
				if strings.HasPrefix(l, want) {
					return
				}
			case <-deadline:
				t.Fatalf("no %q within 60 s", want)
			}
		}
	}
	waitFor("in sync with " + first + " settings")
	waitFor("in sync with " + first + " settings") // a second run, at the interval
	second := g.commit("usd", map[string]string{"settings.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  currency: USD\n"})
	waitFor("in sync with " + second + " usd")
	if got := c.Kubectl(t, "-n", ns, "get", "configmap", "settings", "-o", "jsonpath={.data.currency}"); got != "USD" {
		t.Errorf("currency %q after the new commit", got)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("kubeplan --interval after SIGTERM: %v (want exit 0)", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("kubeplan --interval did not stop after SIGTERM")
	}
}
