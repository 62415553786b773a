package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// failFastBound is how long after the first pod signal a failed apply may
// take to report it (issue 28): the classifier's grace for the signal,
// plus this.
const failFastBound = 30 * time.Second

// failingApply is one kubeplan apply that must fail fast.
type failingApply struct {
	// applyset is the ApplySet's name (configmap/NAME).
	applyset string
	// files are the manifests, by file name, applied as one directory.
	files map[string]string
	// grace is how long the classifier lets the signal last before it is
	// fatal (health/failfast.go): 0 for a crash, 10 s for a config error,
	// 30 s for FailedScheduling.
	grace time.Duration
	// args are flags added to the apply (-o json).
	args []string
}

// writeManifests writes files into a new directory and returns it.
func writeManifests(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// applyFailing applies f's manifests into ns as the identity of kubeconfig
// kc with a 5 minute --timeout, and fails t at once unless apply exits 1
// within f.grace + failFastBound of its start (the start of the apply is
// before the first pod signal, so the bound is if anything strict). It
// returns the manifests' directory, stdout and stderr.
func applyFailing(t *testing.T, kc, ns string, f failingApply) (dir, stdout, stderr string) {
	t.Helper()
	dir = writeManifests(t, f.files)
	args := append([]string{"apply", "--kubeconfig", kc, "-n", ns, "--applyset", "configmap/" + f.applyset, "--timeout", "5m"}, f.args...)
	start := time.Now()
	code, stdout, stderr := cli(append(args, dir)...)
	took := time.Since(start)
	if bound := f.grace + failFastBound; code != 1 || took > bound {
		t.Fatalf("exit %d after %s (want 1 within %s, well before the 5m timeout)\nstdout:\n%s\nstderr:\n%s", code, took, bound, stdout, stderr)
	}
	t.Logf("failed after %s\n%s", took.Round(time.Second), stdout)
	return dir, stdout, stderr
}

// wantAll fails t for every string of wants that out (named what) lacks.
func wantAll(t *testing.T, what, out string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(out, want) {
			t.Errorf("%s lacks %q:\n%s", what, want, out)
		}
	}
}

// wantNamed fails t unless stderr, the error apply prints, names the
// workload and the reason.
func wantNamed(t *testing.T, stderr, workload, reason string) {
	t.Helper()
	if !strings.Contains(stderr, workload) || !strings.Contains(stderr, reason) {
		t.Errorf("stderr does not name the workload %s and the reason %s:\n%s", workload, reason, stderr)
	}
}
