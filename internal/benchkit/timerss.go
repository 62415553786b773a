package benchkit

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// A child's rusage peak RSS is never below the benchmark process's own
// peak when it started the child (Linux counts the memory exec replaces),
// and a benchmark grows by reading large outputs. Timed runs t under
// /usr/bin/time, a small process, which reports its own child's peak RSS
// exactly; RunTimed reads it back. Without /usr/bin/time, t runs as is.
func Timed(t Tool, dir string) (Tool, string) {
	name := strings.ReplaceAll(t.Name+"-"+t.Args[len(t.Args)-1], "/", "_")
	bin, err := exec.LookPath("/usr/bin/time")
	if err != nil {
		return t, ""
	}
	out := filepath.Join(dir, "rss-"+name+".txt")
	w := t
	w.Bin = bin
	w.Args = append([]string{"-f", "%M", "-o", out, t.Bin}, t.Args...)
	return w, out
}

// RunTimed runs t (made by Timed) and sets the sample's peak RSS from the
// file /usr/bin/time wrote, when there is one.
func RunTimed(t Tool, rssFile string) (Sample, []byte, error) {
	s, out, err := t.Run(0)
	if err != nil || rssFile == "" {
		return s, out, err
	}
	b, err := os.ReadFile(rssFile)
	if err != nil {
		return s, out, fmt.Errorf("reading /usr/bin/time's output: %w", err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	kib, err := strconv.ParseInt(strings.TrimSpace(lines[len(lines)-1]), 10, 64)
	if err != nil {
		return s, out, fmt.Errorf("reading /usr/bin/time's output %q: %w", b, err)
	}
	s.MaxRSS = kib
	return s, out, nil
}
