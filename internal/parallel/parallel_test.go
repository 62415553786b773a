package parallel

import (
	"sync/atomic"
	"testing"
)

func TestEachRunsEveryIndexOnceWithinBound(t *testing.T) {
	out := make([]int, 1000)
	var running, peak atomic.Int32
	Each(3, len(out), func(i int) {
		r := running.Add(1)
		for {
			p := peak.Load()
			if r <= p || peak.CompareAndSwap(p, r) {
				break
			}
		}
		out[i] += i
		running.Add(-1)
	})
	for i, v := range out {
		if v != i {
			t.Fatalf("slot %d = %d", i, v)
		}
	}
	if peak.Load() > 3 {
		t.Errorf("%d ran at once, bound is 3", peak.Load())
	}
	Each(0, 0, func(int) { t.Error("called for an empty range") })
}
