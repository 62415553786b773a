package benchkit

import (
	"testing"
	"time"
)

func TestParseStatCPU(t *testing.T) {
	stat := "4242 (test cluster) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 75 0 0 20 0 40 0 123 456 789"
	if got := parseStatCPU(stat); got != 3250*time.Millisecond {
		t.Errorf("cpu %v, want 3.25s", got)
	}
}
