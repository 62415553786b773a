package benchkit

import (
	"os"
	"os/exec"
	"testing"
)

// RunTimed reports the peak RSS of the command itself, read from
// /usr/bin/time, not this test process's (which is larger than sh's);
// without /usr/bin/time it falls back to rusage's peak.
func TestRunTimedReadsChildRSS(t *testing.T) {
	_, lookErr := exec.LookPath("/usr/bin/time")
	if lookErr != nil && os.Getenv("CI") == "true" {
		t.Fatal("no /usr/bin/time in CI: .ci/run installs the time package")
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
	if lookErr != nil {
		// Without /usr/bin/time (a developer machine without the time
		// package): the tool runs as is and the peak is rusage's, which
		// counts this process's memory too.
		if file != "" || w.Bin != "/bin/sh" || s.MaxRSS <= 0 {
			t.Errorf("without /usr/bin/time: file %q, bin %q, peak %d KiB; want the tool as is and rusage's peak", file, w.Bin, s.MaxRSS)
		}
		return
	}
	if s.MaxRSS <= 0 || s.MaxRSS > 50<<10 {
		t.Errorf("peak RSS of sh = %d KiB, want a small positive number", s.MaxRSS)
	}
	_ = big[len(big)-1]
}
