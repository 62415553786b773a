package main

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

// The schedule loop, run as a real process: it reconciles at the interval,
// follows new commits, and exits 0 on SIGTERM after finishing its run.
func TestIntegrationIntervalLoop(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	bin := testkube.Kubeplan(t)
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

// Ctrl-C during the health wait of a one-shot apply stops the wait at once:
// what was written stays written, the exit is 1, and the message says the
// wait was interrupted. (A PersistentVolumeClaim never becomes Current here:
// the cluster has no volumes to bind it to.)
func TestIntegrationApplyInterrupted(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	bin := testkube.Kubeplan(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "set.yaml"), []byte(`apiVersion: v1
kind: ConfigMap
metadata: {name: settings}
data: {currency: EUR}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
`), 0o644)
	cmd := exec.Command(bin, "apply", "--kubeconfig", c.AdminKubeconfig(), "-n", ns, "--applyset", "configmap/set", "--timeout", "5m", dir)
	cmd.Env = append(cmd.Environ(), "KUBEPLAN_CACHE_DIR="+t.TempDir())
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	// The progress of the wait is on stderr: interrupt once it shows.
	stderr := &watchedBuffer{want: "waiting 1/2: persistentvolumeclaim/data", seen: make(chan struct{})}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	select {
	case <-stderr.seen:
	case <-time.After(60 * time.Second):
		t.Fatalf("no wait within 60 s:\n%s", stderr.String())
	}
	start := time.Now()
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 {
			t.Errorf("interrupted apply: %v, want exit 1\n%s", err, stderr.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("kubeplan apply did not stop within 20 s of Ctrl-C")
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("stopping took %s", d)
	}
	if !strings.Contains(stdout.String(), "persistentvolumeclaim/data created") {
		t.Errorf("stdout does not report what was written:\n%s", stdout.String())
	}
	if !strings.Contains(stderr.String(), "interrupt") || !strings.Contains(stderr.String(), "persistentvolumeclaim/data") {
		t.Errorf("stderr does not say the wait for persistentvolumeclaim/data was interrupted:\n%s", stderr.String())
	}
	if got := c.Kubectl(t, "-n", ns, "get", "configmap", "settings", "-o", "jsonpath={.data.currency}"); got != "EUR" {
		t.Errorf("the written ConfigMap is gone after the interrupt: %q", got)
	}
	if got := c.Kubectl(t, "-n", ns, "get", "configmap", "set", "-o", "jsonpath={.metadata.annotations.kubeplan\\.dev/result}"); got != "failed" {
		t.Errorf("recorded result %q, want failed", got)
	}
}

// watchedBuffer collects a process's output and closes seen when want
// first appears in it.
type watchedBuffer struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	want string
	seen chan struct{}
	once sync.Once
}

func (w *watchedBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if strings.Contains(w.buf.String(), w.want) {
		w.once.Do(func() { close(w.seen) })
	}
	return len(p), nil
}

func (w *watchedBuffer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}
