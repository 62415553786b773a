package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// tool is one command under test.
type tool struct {
	name    string
	bin     string
	args    []string
	env     []string // added to the environment
	dir     string   // working directory
	okCodes []int    // exit codes of a run that worked (kubectl diff: 1 = differences)
}

// sample is what one run cost.
type sample struct {
	Wall      time.Duration
	CPU       time.Duration // user + system of the child (or of this process, for the raw loops)
	MaxRSS    int64         // peak resident set of the child, KiB; 0 for the raw loops
	ServerCPU time.Duration // user + system the cluster process spent meanwhile
	ExitCode  int
}

// run runs t once as a child process and measures it; serverPID is the
// cluster's process, whose CPU time is read before and after.
func (t tool) run(serverPID int) (sample, []byte, error) {
	cmd := exec.Command(t.bin, t.args...)
	cmd.Dir = t.dir
	cmd.Env = append(os.Environ(), t.env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	srv := processCPU(serverPID)
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	srv = processCPU(serverPID) - srv
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		return sample{}, nil, fmt.Errorf("%s: %w", t.name, err)
	}
	ps := cmd.ProcessState
	s := sample{Wall: wall, CPU: ps.UserTime() + ps.SystemTime(), ServerCPU: srv, ExitCode: ps.ExitCode()}
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		s.MaxRSS = int64(ru.Maxrss) // KiB on Linux
	}
	if !slices.Contains(t.okCodes, s.ExitCode) {
		return s, nil, fmt.Errorf("%s exited with code %d: %s", t.name, s.ExitCode, firstLines(stderr.String(), 10))
	}
	return s, stdout.Bytes(), nil
}

// commandLine shows how t is run, for the report.
func (t tool) commandLine() string {
	parts := append([]string(nil), t.env...)
	parts = append(parts, t.bin)
	for _, a := range t.args {
		if strings.ContainsAny(a, " {}'") {
			a = "'" + a + "'"
		}
		parts = append(parts, a)
	}
	return strings.Join(parts, " ")
}

// measureSelf measures fn run in this process: wall time, this process's
// CPU time and the cluster's CPU time meanwhile.
func measureSelf(serverPID int, fn func() error) (sample, error) {
	cpu := selfCPU()
	srv := processCPU(serverPID)
	start := time.Now()
	err := fn()
	return sample{Wall: time.Since(start), CPU: selfCPU() - cpu, ServerCPU: processCPU(serverPID) - srv}, err
}

func selfCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// clockTick is USER_HZ, the unit of /proc/PID/stat times (100 on Linux).
const clockTick = 10 * time.Millisecond

// processCPU is utime+stime of a process from /proc/PID/stat (all its
// threads), 0 if unknown.
func processCPU(pid int) time.Duration {
	if pid <= 0 {
		return 0
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	return parseStatCPU(string(b))
}

func parseStatCPU(stat string) time.Duration {
	// The command name (field 2) is in parentheses and may hold spaces.
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(stat[i+1:]) // f[0] is field 3 (state)
	if len(f) < 13 {
		return 0
	}
	u, err1 := strconv.ParseInt(f[11], 10, 64) // field 14, utime
	s, err2 := strconv.ParseInt(f[12], 10, 64) // field 15, stime
	if err1 != nil || err2 != nil {
		return 0
	}
	return time.Duration(u+s) * clockTick
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(strings.TrimSpace(s), "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}
