package main

import (
	"github.com/kubeplan/kubeplan/internal/benchkit"

	"bytes"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// tool is one command under test.
type tool struct {
	name string
	bin  string
	args []string
	dir  string // working directory
	// okCodes are the exit codes of a run that worked (1: invalid objects found).
	okCodes []int
}

// sample is what one run of a tool cost.
type sample struct {
	Wall     time.Duration
	CPU      time.Duration // user + system
	MaxRSS   int64         // peak resident set, KiB
	ExitCode int
}

// run runs t once as a child process and measures it. The child's standard
// output is returned for checking what it found.
func (t tool) run() (sample, []byte, error) {
	cmd := exec.Command(t.bin, t.args...)
	cmd.Dir = t.dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		return sample{}, nil, fmt.Errorf("%s: %w", t.name, err)
	}
	ps := cmd.ProcessState
	s := sample{Wall: wall, CPU: ps.UserTime() + ps.SystemTime(), ExitCode: ps.ExitCode()}
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		s.MaxRSS = int64(ru.Maxrss) // KiB on Linux
	}
	if !containsInt(t.okCodes, s.ExitCode) {
		return s, nil, fmt.Errorf("%s exited with code %d: %s", t.name, s.ExitCode, firstLines(stderr.String(), 10))
	}
	return s, stdout.Bytes(), nil
}

// shown is t as the report shows it: paths relative to root, and the
// schema cache directory as schemas.Dir().
func (t tool) shown(root, schemaDir string) tool {
	t.bin, t.dir = benchkit.Rel(root, t.bin), benchkit.Rel(root, t.dir)
	t.args = append([]string(nil), t.args...)
	for i, a := range t.args {
		t.args[i] = strings.ReplaceAll(a, schemaDir, "$(schemas.Dir())")
	}
	return t
}

// commandLine shows how t is run, for the report.
func (t tool) commandLine() string {
	parts := []string{t.bin}
	for _, a := range t.args {
		if strings.ContainsAny(a, " {}'") {
			a = "'" + a + "'"
		}
		parts = append(parts, a)
	}
	return strings.Join(parts, " ")
}

func containsInt(list []int, v int) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(strings.TrimSpace(s), "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}
