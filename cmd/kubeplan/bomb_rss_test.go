package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/kubeplan/kubeplan/internal/testing/bombcorpus"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

// maxRSSRatio is the memory bound: peak RSS at most 10x the input.
const maxRSSRatio = 10

// peakRSS runs bin with args and returns its exit code, output and peak
// resident set in bytes. It runs under /usr/bin/time when there is one: a
// child's own rusage is never below this (large) test process's peak, which
// Linux carries over exec; /usr/bin/time is small and reports its child's.
func peakRSS(t *testing.T, bin string, args ...string) (code int, stdout, stderr string, rss int64) {
	t.Helper()
	rssFile := filepath.Join(t.TempDir(), "rss")
	cmd := exec.Command(bin, args...)
	timed := false
	if _, err := os.Stat("/usr/bin/time"); err == nil {
		cmd = exec.Command("/usr/bin/time", append([]string{"-f", "%M", "-o", rssFile, bin}, args...)...)
		timed = true
	}
	cmd.Env = append(os.Environ(), "KUBEPLAN_CACHE_DIR="+t.TempDir(), "NO_COLOR=1", "GITHUB_ACTIONS=")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	code = cmd.ProcessState.ExitCode()
	if timed {
		b, err := os.ReadFile(rssFile)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		kib, err := strconv.ParseInt(lines[len(lines)-1], 10, 64)
		if err != nil {
			t.Fatalf("/usr/bin/time wrote %q", b)
		}
		return code, out.String(), errb.String(), kib << 10
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		t.Fatal("no rusage for the child")
	}
	return code, out.String(), errb.String(), int64(ru.Maxrss) << 10 // KiB on Linux
}

// The bomb corpus (internal/testing/bombcorpus: every shape that cost 40x to 110x its
// size, 4 MiB each, beside 2 MiB of short keys just above the density line
// and 2 MiB of ordinary Deployments) costs lint and plan (which keeps every
// object) at most 10x its size in peak RSS: the bombs are refused unparsed,
// each named, and the rest loads.
func TestBombCorpusMemory(t *testing.T) {
	dir := t.TempDir()
	bombs, n, err := bombcorpus.Write(dir, 4<<20, bombcorpus.Shapes...)
	if err != nil {
		t.Fatal(err)
	}
	_, m, err := bombcorpus.Write(dir, 2<<20, append(bombcorpus.Dense, bombcorpus.Ordinary)...)
	if err != nil {
		t.Fatal(err)
	}
	input := n + m
	bin := testkube.Kubeplan(t)
	kc := filepath.Join(t.TempDir(), "kubeconfig")
	// plan loads and lints before its first request: a cluster that
	// refuses connections is never reached.
	if err := os.WriteFile(kc, []byte(`apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
users: [{name: u, user: {token: not-used}}]
contexts: [{name: c, context: {cluster: c, user: u, namespace: shop}}]
current-context: c
`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"lint", dir}, {"plan", "--kubeconfig", kc, dir}} {
		code, stdout, stderr, rss := peakRSS(t, bin, args...)
		t.Logf("kubeplan %s: peak RSS %d MiB for %d MiB of input (%.1fx)", args[0], rss>>20, input>>20, float64(rss)/float64(input))
		if code != 1 {
			t.Errorf("kubeplan %s: exit %d, want 1 (the bombs are errors)\n%s", args[0], code, stderr)
		}
		report := stdout + stderr
		for _, f := range bombs {
			if !strings.Contains(report, filepath.Base(f)+":1:1: error invalid-yaml: not loaded:") {
				t.Errorf("kubeplan %s does not refuse %s by name:\n%s", args[0], filepath.Base(f), report)
			}
		}
		if args[0] == "lint" && !strings.Contains(stdout, "objects)") {
			t.Errorf("lint's summary is missing:\n%s", stdout)
		}
		if rss > maxRSSRatio*input {
			t.Errorf("kubeplan %s: peak RSS %d MiB is over %dx the %d MiB of input", args[0], rss>>20, maxRSSRatio, input>>20)
		}
	}
}
