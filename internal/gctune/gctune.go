package gctune

import (
	"fmt"
	"runtime/debug"
	"strconv"
	"strings"
)

// ServeGCPercent is serve's GOGC. Measured on the 100 projects x 50 objects
// no-op round (make bench-serve): peak anonymous memory 51-57 MiB at 100,
// 40-41 MiB at 50, for the same CPU within the noise.
const ServeGCPercent = 50

// LimitShare is the share of the container's memory limit given to the Go
// runtime as its soft limit; the rest is left to the binary's own pages
// and the page cache, which the cgroup also counts.
const LimitShare = 0.7

// cgroupFiles are where the container's memory limit is read: cgroup v2,
// then v1.
var cgroupFiles = []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}

// noLimit is above any real memory limit: cgroup v1 says "unlimited" with a
// number near 2^63.
const noLimit = 1 << 50

// Settings are what Serve decided.
type Settings struct {
	// GCPercent is the GOGC to set; 0 leaves it.
	GCPercent int
	// MemoryLimit is the soft limit in bytes to set; 0 leaves it.
	// ContainerLimit is the limit it was derived from.
	MemoryLimit, ContainerLimit int64
}

// Serve decides serve's settings from the environment (getenv) and the
// cgroup files (readFile).
func Serve(getenv func(string) string, readFile func(string) ([]byte, error)) Settings {
	var s Settings
	if getenv("GOGC") == "" {
		s.GCPercent = ServeGCPercent
	}
	if getenv("GOMEMLIMIT") != "" {
		return s
	}
	for _, f := range cgroupFiles {
		b, err := readFile(f)
		if err != nil {
			continue
		}
		v := strings.TrimSpace(string(b))
		n, err := strconv.ParseInt(v, 10, 64)
		if v == "max" || err != nil || n <= 0 || n >= noLimit {
			return s // no limit, or one that cannot be read
		}
		s.ContainerLimit, s.MemoryLimit = n, int64(float64(n)*LimitShare)
		return s
	}
	return s
}

// Apply sets s on the runtime.
func (s Settings) Apply() {
	if s.GCPercent > 0 {
		debug.SetGCPercent(s.GCPercent)
	}
	if s.MemoryLimit > 0 {
		debug.SetMemoryLimit(s.MemoryLimit)
	}
}

// String says what was set, for serve's start line; "" when nothing was.
func (s Settings) String() string {
	var parts []string
	if s.GCPercent > 0 {
		parts = append(parts, fmt.Sprintf("GOGC=%d", s.GCPercent))
	}
	if s.MemoryLimit > 0 {
		parts = append(parts, fmt.Sprintf("GOMEMLIMIT=%dMiB (%.0f%% of the container's %dMiB)", s.MemoryLimit>>20, LimitShare*100, s.ContainerLimit>>20))
	}
	return strings.Join(parts, ", ")
}
