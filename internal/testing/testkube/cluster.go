package testkube

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"k8s.io/client-go/dynamic"
)

const (
	// ReadyTimeout is how long Launch waits for the cluster's "ready" line.
	ReadyTimeout = 60 * time.Second
	stopTimeout  = 30 * time.Second
)

// Cluster is a running bin/testcluster process.
type Cluster struct {
	binary     string
	dir        string
	ownDir     bool // dir was made by Launch and is removed by Stop
	kubeconfig string
	cmd        *exec.Cmd
	stdin      io.Closer
	stderr     *tailBuffer
	exited     chan struct{} // closed when the process has been waited for
	waitErr    error         // the process's exit; read after exited is closed
	stopOnce   sync.Once
	stopErr    error
	seq        atomic.Int64 // numbers the namespaces made by Namespace
	clientMu   sync.Mutex
	client     dynamic.Interface // the admin's, made by admin
}

// Launch starts bin/testcluster in a new temporary directory and waits until it
// is ready. The caller must call Stop.
func Launch() (*Cluster, error) {
	bin, err := Binary()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "testkube-")
	if err != nil {
		return nil, err
	}
	c, err := launch(bin, dir)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	c.ownDir = true
	return c, nil
}

// LaunchIn starts the testcluster binary bin in dir and waits until it is
// ready. Stop leaves dir in place: its owner removes it after Stop.
func LaunchIn(bin, dir string) (*Cluster, error) {
	return launch(bin, dir)
}

// launch runs `testcluster start` in dir and waits for its ready line.
func launch(bin, dir string) (*Cluster, error) {
	cmd := exec.Command(bin, "start", "--dir", dir, "--stop-on-stdin-eof")
	// In a process group of its own, a Ctrl-C at the terminal reaches only
	// the parent, which then stops the cluster (a second signal would kill
	// it half way through its shutdown).
	ownProcessGroup(cmd)
	// Closing stdin (which happens when this process dies, however it dies)
	// stops the cluster too, so no cluster outlives its test binary.
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	c := &Cluster{binary: bin, dir: dir, cmd: cmd, stdin: stdin, stderr: &tailBuffer{max: 8 << 10}, exited: make(chan struct{})}
	cmd.Stderr = c.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}

	ready := make(chan string, 1)
	go func() {
		s := bufio.NewScanner(stdout)
		for s.Scan() {
			if path, ok := strings.CutPrefix(s.Text(), "ready "); ok {
				ready <- path
				break
			}
		}
		_, _ = io.Copy(io.Discard, stdout) // keep the pipe drained
	}()
	go func() {
		c.waitErr = cmd.Wait()
		close(c.exited)
	}()

	select {
	case c.kubeconfig = <-ready:
		return c, nil
	case <-c.exited:
		stdin.Close()
		return nil, fmt.Errorf("testcluster exited before it was ready (%v)%s", c.waitErr, c.diagnostics())
	case <-time.After(ReadyTimeout):
		err := fmt.Errorf("testcluster not ready after %s%s", ReadyTimeout, c.diagnostics())
		_ = c.Stop()
		return nil, err
	}
}

// AdminKubeconfig is the path of a kubeconfig with full rights (group system:masters).
func (c *Cluster) AdminKubeconfig() string { return c.kubeconfig }

// Dir is the cluster's directory: PKI, kubeconfigs, etcd data, logs.
func (c *Cluster) Dir() string { return c.dir }

// PID is the process id of the testcluster process.
func (c *Cluster) PID() int { return c.cmd.Process.Pid }

// Stop ends the cluster (SIGTERM, then SIGKILL after 30 s) and waits for the
// process to exit. It removes the directory Launch made. Stopping twice is fine.
func (c *Cluster) Stop() error {
	c.stopOnce.Do(func() {
		c.stopErr = c.stop()
		if c.ownDir {
			if err := os.RemoveAll(c.dir); err != nil && c.stopErr == nil {
				c.stopErr = err
			}
		}
	})
	return c.stopErr
}

func (c *Cluster) stop() error {
	select {
	case <-c.exited:
		return exitError(c.waitErr)
	default:
	}
	_ = c.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-c.exited:
		c.stdin.Close()
		return exitError(c.waitErr)
	case <-time.After(stopTimeout):
		_ = c.cmd.Process.Kill()
		<-c.exited
		c.stdin.Close()
		return fmt.Errorf("testcluster did not stop within %s after SIGTERM; killed%s", stopTimeout, c.diagnostics())
	}
}

// exitError keeps an unexpected exit status; a clean exit 0 is nil.
func exitError(err error) error {
	if err != nil {
		return fmt.Errorf("testcluster exited: %w", err)
	}
	return nil
}

// diagnostics is what the process said on stderr and the end of its log, for error messages.
func (c *Cluster) diagnostics() string {
	var b strings.Builder
	if s := strings.TrimSpace(c.stderr.String()); s != "" {
		fmt.Fprintf(&b, "\nstderr:\n%s", s)
	}
	if s := c.LogTail(40); s != "" {
		fmt.Fprintf(&b, "\nlast lines of %s:\n%s", filepath.Join(c.dir, "testcluster.log"), s)
	}
	return b.String()
}

// LogTail returns the last n lines of the cluster's log.
func (c *Cluster) LogTail(n int) string {
	data, err := os.ReadFile(filepath.Join(c.dir, "testcluster.log"))
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if len(b.buf) > b.max {
		b.buf = b.buf[len(b.buf)-b.max:]
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}

var errStopped = errors.New("testkube: cluster is stopped")
