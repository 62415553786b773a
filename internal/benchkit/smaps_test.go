package benchkit

import (
	"os/exec"
	"testing"
)

// TestStartedMemory reads the memory of cat waiting on its input.
func TestStartedMemory(t *testing.T) {
	cat, err := exec.LookPath("cat")
	if err != nil {
		t.Fatal(err)
	}
	m, err := StartedMemory(cat, nil, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if m["Rss"] <= 0 || m["Rss"] < m["Pss_Anon"] {
		t.Errorf("smaps_rollup of cat: Rss %d KiB, Pss_Anon %d KiB", m["Rss"], m["Pss_Anon"])
	}
}
