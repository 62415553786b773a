package benchkit

import (
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
)

// Machine describes where the benchmark ran.
type Machine struct {
	NumCPU    int
	GoVersion string
	CPUModel  string
	MemTotal  string
	Kernel    string
	Env       string // GOMAXPROCS, GOGC, GOMEMLIMIT when set
	Commit    string
}

func DescribeMachine(root string) Machine {
	m := Machine{NumCPU: runtime.NumCPU(), GoVersion: runtime.Version()}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				m.CPUModel = strings.TrimSpace(v)
				break
			}
		}
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == "MemTotal:" {
				if kib, err := strconv.ParseInt(f[1], 10, 64); err == nil {
					m.MemTotal = strconv.FormatInt((kib+(1<<19))>>20, 10) + " GiB"
				}
			}
		}
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.Kernel = "Linux " + strings.TrimSpace(string(b))
	}
	var env []string
	for _, k := range []string{"GOMAXPROCS", "GOGC", "GOMEMLIMIT", "GODEBUG"} {
		if v := os.Getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	m.Env = strings.Join(env, " ")
	m.Commit = GitCommit(root)
	return m
}

// GitCommit names the commit of the working tree, marked when it has
// uncommitted changes outside docs/ (work in progress is then measured too).
func GitCommit(root string) string {
	out, err := exec.Command("git", "-C", root, "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return "?"
	}
	c := strings.TrimSpace(string(out))
	st, err := exec.Command("git", "-C", root, "status", "--porcelain", "--untracked-files=no", "--", ".", ":(exclude)docs").Output()
	if err == nil && len(strings.TrimSpace(string(st))) > 0 {
		c += " with uncommitted changes"
	}
	return c
}

// LoadAverage is the 1-minute load average, "" when unknown.
func LoadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return ""
	}
	return f[0]
}
