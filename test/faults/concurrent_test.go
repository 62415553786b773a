package faults

import (
	"fmt"
	"strings"
	"testing"
)

// Two, then three, kubeplan apply processes of one set at once, over five
// rounds that each replace the whole set: exactly one wins each round, the
// others exit 1 with the lock message, and the invariants hold after every
// round.
func TestConcurrentApplies(t *testing.T) {
	for _, procs := range []int{2, 3} {
		t.Run(fmt.Sprintf("%d", procs), func(t *testing.T) {
			e := newEnv(t)
			// Latency stretches the winner's writes and prune to seconds,
			// so the losers, which plan as long, meet its lock.
			e.proxy.Latency(faultLatency)
			var prev []obj
			for round := range 5 {
				desired := join(objs("ConfigMap", fmt.Sprintf("r%d", round), 100), objs("Service", fmt.Sprintf("r%d-web", round), 2))
				dir := e.corpus(desired...)
				before := e.snapshot()
				runs := make([]*run, procs)
				for i := range runs {
					runs[i] = e.start(dir, "--concurrency", faultConcurrency)
				}
				var won, locked []int
				var others []string
				for i, r := range runs {
					switch code := r.wait(runBound); {
					case code == 0:
						won = append(won, i)
					case code == 1 && strings.Contains(r.stderr.String(), "is locked by"):
						locked = append(locked, i)
					default:
						others = append(others, fmt.Sprintf("process %d exited %d after %s:\n%s", i, code, r.elapsed(), r.output()))
					}
				}
				if len(won) != 1 || len(locked) != procs-1 {
					t.Errorf("round %d: %d processes won (%v) and %d lost the lock (%v); want exactly one winner and %d refused with the lock message\n%s",
						round, len(won), won, len(locked), locked, procs-1, strings.Join(others, "\n"))
				}
				now := e.snapshot()
				e.checkParentCovers(fmt.Sprintf("after round %d", round), now)
				e.checkNoPruneBeforeWrites(before, now, desired)
				e.checkBystander()
				if len(won) == 1 {
					if got := now.count(desired); got != len(desired) || len(now.members) != len(desired) {
						t.Errorf("round %d: the winner exited 0 but the set has %d members, %d of the %d desired (the previous round's %d should be pruned)",
							round, len(now.members), got, len(desired), now.count(prev))
					}
				}
				if t.Failed() {
					return
				}
				prev = desired
			}
		})
	}
}
