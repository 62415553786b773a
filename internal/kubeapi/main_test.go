package kubeapi

import (
	"fmt"
	"os"
	"testing"
)

// TestMain keeps the tests' extracted schemas out of the user's cache.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "kubeplan-schemas-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("KUBEPLAN_CACHE_DIR", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
