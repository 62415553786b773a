package benchkit

import (
	"os"
	"os/exec"
	"testing"
)

// RunTimed reports the peak RSS of the command itself, read from
// /usr/bin/time, not this test process's (which is larger than sh's).
func TestRunTimedReadsChildRSS(t *testing.T) {
	if _, err := exec.LookPath("/usr/bin/time"); err != nil {
		// .ci/run installs it; a developer machine may lack it, and the
		// benchmarks then fall back to rusage (and say so).
		if os.Getenv("CI") == "true" {
			t.Fatal("no /usr/bin/time in CI: .ci/run installs the time package")
		}
		t.Skip("no /usr/bin/time: install the time package (apt-get install time) to test the benchmarks' exact peak RSS")
	}
	big := make([]byte, 200<<20) // this process: at least 200 MiB resident
	for i := range big {
		big[i] = 1
	}
	w, file := Timed(Tool{Name: "sh", Bin: "/bin/sh", Args: []string{"-c", "exit 0"}, OKCodes: []int{0}}, t.TempDir())
	s, _, err := RunTimed(w, file)
	if err != nil {
		t.Fatal(err)
	}
	if s.MaxRSS <= 0 || s.MaxRSS > 50<<10 {
		t.Errorf("peak RSS of sh = %d KiB, want a small positive number", s.MaxRSS)
	}
	_ = big[len(big)-1]
}
