package benchkit

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

// Tool is one command under test.
type Tool struct {
	Name    string
	Bin     string
	Args    []string
	Env     []string // added to the environment
	Dir     string   // working directory
	OKCodes []int    // exit codes of a run that worked (kubeconform, kubectl diff: 1 = findings)
}

// Sample is what one run cost.
type Sample struct {
	Wall      time.Duration
	CPU       time.Duration // user + system of the child (or of this process, for in-process loops)
	MaxRSS    int64         // peak resident set of the child, KiB; 0 in-process
	ServerCPU time.Duration // user + system the cluster process spent meanwhile (0 without one)
	ExitCode  int
}

// Run runs t once as a child process and measures it; serverPID, when
// not 0, is a cluster process whose CPU time is read before and after. The
// child's standard output is returned for checking what it found.
func (t Tool) Run(serverPID int) (Sample, []byte, error) {
	cmd := exec.Command(t.Bin, t.Args...)
	cmd.Dir = t.Dir
	cmd.Env = append(os.Environ(), t.Env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	srv := ProcessCPU(serverPID)
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	srv = ProcessCPU(serverPID) - srv
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		return Sample{}, nil, fmt.Errorf("%s: %w", t.Name, err)
	}
	ps := cmd.ProcessState
	s := Sample{Wall: wall, CPU: ps.UserTime() + ps.SystemTime(), ServerCPU: srv, ExitCode: ps.ExitCode()}
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		s.MaxRSS = int64(ru.Maxrss) // KiB on Linux
	}
	if !slices.Contains(t.OKCodes, s.ExitCode) {
		return s, nil, fmt.Errorf("%s exited with code %d: %s", t.Name, s.ExitCode, FirstLines(stderr.String(), 10))
	}
	return s, stdout.Bytes(), nil
}

// CommandLine shows how t is run, for the report.
func (t Tool) CommandLine() string {
	parts := append([]string(nil), t.Env...)
	parts = append(parts, t.Bin)
	for _, a := range t.Args {
		if strings.ContainsAny(a, " {}'") {
			a = "'" + a + "'"
		}
		parts = append(parts, a)
	}
	return strings.Join(parts, " ")
}

// MeasureSelf measures fn run in this process: wall time, this process's
// CPU time and the cluster's CPU time meanwhile.
func MeasureSelf(serverPID int, fn func() error) (Sample, error) {
	cpu := SelfCPU()
	srv := ProcessCPU(serverPID)
	start := time.Now()
	err := fn()
	return Sample{Wall: time.Since(start), CPU: SelfCPU() - cpu, ServerCPU: ProcessCPU(serverPID) - srv}, err
}

// SelfCPU is this process's user + system time so far.
func SelfCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// clockTick is USER_HZ, the unit of /proc/PID/stat times (100 on Linux).
const clockTick = 10 * time.Millisecond

// ProcessCPU is utime+stime of a process from /proc/PID/stat (all its
// threads), 0 if unknown.
func ProcessCPU(pid int) time.Duration {
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

// FirstLines is the first n lines of s, trimmed.
func FirstLines(s string, n int) string {
	lines := strings.SplitN(strings.TrimSpace(s), "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}

// ToolVersion returns the first line a command prints, or "?".
func ToolVersion(bin string, args ...string) string {
	out, err := exec.Command(bin, args...).Output()
	if err != nil {
		return "?"
	}
	line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	return line
}
