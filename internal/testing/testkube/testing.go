package testkube

import (
	"fmt"
	"os"
	"sync"
	"testing"
)

// Start gives t a cluster of its own, started in t.TempDir() and stopped when
// t ends. It skips t (or fails it with CI=true) when bin/testcluster is missing.
func Start(t testing.TB) *Cluster {
	t.Helper()
	bin := requireBinary(t)
	dir := t.TempDir() // removed after the cleanup below has stopped the cluster
	c, err := launch(bin, dir)
	if err != nil {
		t.Fatalf("testkube: %v", err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("testkube: last lines of the cluster's log:\n%s", c.LogTail(30))
		}
		if err := c.Stop(); err != nil {
			t.Errorf("testkube: %v", err)
		}
	})
	return c
}

// shared is the package's cluster behind Shared.
var shared struct {
	once    sync.Once
	cluster *Cluster
	err     error
}

// Shared returns the cluster that all tests of the package share, starting it
// on first use. Main stops it when the package's tests end (and if the test
// binary dies first, the cluster stops by itself). Tests sharing it should
// work in their own Namespace.
func Shared(t testing.TB) *Cluster {
	t.Helper()
	requireBinary(t)
	shared.once.Do(func() { shared.cluster, shared.err = Launch() })
	if shared.err != nil {
		t.Fatalf("testkube: %v", shared.err)
	}
	return shared.cluster
}

// Main runs the package's tests, stops the Shared cluster if one was started,
// and exits. Call it from TestMain.
func Main(m *testing.M) {
	code := m.Run()
	if err := StopShared(); err != nil {
		fmt.Fprintf(os.Stderr, "testkube: %v\n", err)
		if code == 0 {
			code = 1
		}
	}
	os.Exit(code)
}

// StopShared stops the package's Shared cluster, if one was started, and
// removes the binary Kubeplan built. Main
// calls it; a TestMain that must hand m to another runner (testscript) calls
// it after m.Run.
func StopShared() error {
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	if c := shared.cluster; c != nil {
		return c.Stop()
	}
	return nil
}
