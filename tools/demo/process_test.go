//go:build unix

package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestDemoStory runs `make demo` as a user would, from the built binaries:
// it must exit 0 after every step's check held (each check reads the
// cluster: see story_seed.go and story_kustomize.go), within 2 minutes once
// built, leave no cluster process and no work directory behind, and print
// every line README.md and docs/*.md quote from it.
func TestDemoStory(t *testing.T) {
	needCluster(t)
	tmp := t.TempDir()
	cmd := exec.Command("make", "demo")
	cmd.Dir = moduleRoot(t)
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "NO_COLOR=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("make demo: %v\nstdout (end):\n%s\nstderr:\n%s", err, lastLines(stdout.String(), 60), stderr.String())
	}
	out := stdout.String()

	// Every step ran and its check held, in order.
	want := totalSteps()
	if got := strings.Count(out, "\nok: "); got != want {
		t.Errorf("%d checks held, want %d (one per step)", got, want)
	}
	for i := 1; i <= want; i++ {
		if !strings.Contains(out, fmt.Sprintf("\n== %d. ", i)) {
			t.Errorf("step %d was not shown", i)
		}
	}
	m := regexp.MustCompile(`All (\d+) steps done and checked in (\S+)\.`).FindStringSubmatch(out)
	if m == nil || m[1] != fmt.Sprint(want) {
		t.Fatalf("no summary line for %d steps:\n%s", want, lastLines(out, 20))
	}
	if took, err := time.ParseDuration(m[2]); err != nil || took >= 2*time.Minute {
		t.Errorf("the story took %s (%v); it must finish in under 2 minutes once built", m[2], err)
	}
	// The end of the seed story, as the issue tells it.
	if !regexp.MustCompile(`\nin sync with [0-9a-f]{7} Revert "web: three replicas"\n`).MatchString(out) {
		t.Errorf("no \"in sync with <sha> Revert ...\" line after the broken commit's revert")
	}

	// Nothing left behind.
	work, pid := workDirAndPID(t, stderr.String())
	if alive(pid) {
		t.Errorf("the cluster (pid %d) still runs after make demo", pid)
	}
	if _, err := os.Stat(work); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the work directory %s is still there (%v)", work, err)
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "kubeplan-demo-*")); len(left) > 0 {
		t.Errorf("left in TMPDIR: %v", left)
	}

	// The documents quote this output.
	checkTranscripts(t, docBlocks(t), out)
}

// startDemo starts the test binary as the demo program with the built
// kubeplan; lines carries its stdout.
func startDemo(t *testing.T) (*exec.Cmd, <-chan string, *syncBuffer, string) {
	t.Helper()
	kubeplan := buildKubeplan(t)
	tmp := t.TempDir()
	cmd := exec.Command(os.Args[0], "-kubeplan", kubeplan)
	cmd.Env = append(os.Environ(), asProcess+"=1", "TMPDIR="+tmp, "NO_COLOR=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	lines := make(chan string, 1000)
	go func() {
		s := bufio.NewScanner(stdout)
		for s.Scan() {
			lines <- s.Text()
		}
		close(lines)
		_, _ = io.Copy(io.Discard, stdout)
	}()
	return cmd, lines, stderr, tmp
}

// waitForLine waits until the demo prints a line starting with prefix.
func waitForLine(t *testing.T, lines <-chan string, prefix string) {
	t.Helper()
	deadline := time.After(90 * time.Second)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("the demo ended before printing %q", prefix)
			}
			if strings.HasPrefix(l, prefix) {
				return
			}
		case <-deadline:
			t.Fatalf("the demo did not print %q within 90 s", prefix)
		}
	}
}

// waitExit waits for the process to end, draining its output.
func waitExit(t *testing.T, cmd *exec.Cmd, lines <-chan string, within time.Duration) error {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		for range lines {
		}
		done <- cmd.Wait()
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(within):
		t.Fatalf("the demo did not end within %s", within)
		return nil
	}
}

// Ctrl-C in the middle of the story (while kubeplan applies): the demo
// stops its commands and the cluster, removes its work directory, and exits
// 130.
func TestDemoInterrupted(t *testing.T) {
	needCluster(t)
	cmd, lines, stderr, tmp := startDemo(t)
	waitForLine(t, lines, "== 6. ")
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err := waitExit(t, cmd, lines, 60*time.Second)
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitInterrupted {
		t.Errorf("exit: %v, want status %d\nstderr:\n%s", err, exitInterrupted, stderr)
	}
	if !strings.Contains(stderr.String(), "demo: interrupted; stopping the cluster") {
		t.Errorf("stderr does not say it was interrupted:\n%s", stderr)
	}
	work, pid := workDirAndPID(t, stderr.String())
	if alive(pid) {
		t.Errorf("the cluster (pid %d) still runs after the interrupted demo", pid)
	}
	if _, err := os.Stat(work); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the work directory %s is still there (%v)", work, err)
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "kubeplan-demo-*")); len(left) > 0 {
		t.Errorf("left in TMPDIR: %v", left)
	}
}

// Killed outright (SIGKILL, no chance to clean up), the demo still takes
// the cluster with it: the cluster stops when its stdin, a pipe from the
// demo, closes.
func TestDemoKilled(t *testing.T) {
	needCluster(t)
	cmd, lines, stderr, _ := startDemo(t)
	waitForLine(t, lines, "== 4. ")
	work, pid := workDirAndPID(t, stderr.String())
	t.Cleanup(func() { os.RemoveAll(work) }) // nobody else can
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = waitExit(t, cmd, lines, 10*time.Second)
	deadline := time.Now().Add(40 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the cluster (pid %d) still runs 40 s after the demo was killed", pid)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// alive reports whether pid runs; on Linux a zombie (exited, not yet
// reaped) does not count.
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return runtime.GOOS != "linux"
	}
	// "pid (comm) STATE ...": the state follows the last ')'.
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

// syncBuffer is a bytes.Buffer a process writes to while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
