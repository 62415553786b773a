package faults

import (
	"testing"
	"time"
)

// The network cut while planning: the run fails, writes nothing, and the
// next run converges.
func TestCutDuringDryRun(t *testing.T) {
	e := newEnv(t)
	s := e.setUp()
	r := e.startFaulted(s)
	e.inPlan(r, s)
	cut := time.Now()
	e.proxy.Cut()
	r.mustFail("the network was cut while it planned", cut)
	e.checkNothingWritten(s)
	e.checkAfterFailure(s.before, s.desired)
	e.converge(s.desired)
}

// The network cut in the middle of the writes: the run fails, prunes
// nothing, and the parent covers what was written.
func TestCutDuringWrites(t *testing.T) {
	e := newEnv(t)
	s := e.setUp()
	r := e.startFaulted(s)
	e.inWrites(r, s)
	cut := time.Now()
	e.proxy.Cut()
	r.mustFail("the network was cut during its writes", cut)
	e.checkAfterFailure(s.before, s.desired)
	e.converge(s.desired)
}

// The network cut in the middle of the prune.
func TestCutDuringPrune(t *testing.T) {
	e := newEnv(t)
	s := e.setUp()
	r := e.startFaulted(s)
	e.inPrune(r, s)
	cut := time.Now()
	e.proxy.Cut()
	r.mustFail("the network was cut during its prune", cut)
	e.checkAfterFailure(s.before, s.desired)
	e.converge(s.desired)
}

// stallBound is how long a stalled run may take to give up with
// --request-timeout 5s --timeout 60s.
const stallBound = 90 * time.Second

// The network stalled (connections open, no byte moving) during the
// writes: with --request-timeout 5s --timeout 60s kubeplan gives up, non
// zero, well within 90 s.
func TestStallDuringWrites(t *testing.T) {
	e := newEnv(t)
	s := e.setUp()
	r := e.startFaulted(s, "--request-timeout", "5s", "--timeout", "60s")
	e.inWrites(r, s)
	e.proxy.Stall()
	stalled := time.Now()
	select {
	case <-r.done:
		took := time.Since(stalled).Round(100 * time.Millisecond)
		t.Logf("kubeplan exited %d %s after the stall", r.code, took)
		if r.code == 0 {
			t.Errorf("kubeplan exited 0 %s after the network stalled during its writes\n%s", took, r.output())
		}
	case <-time.After(stallBound):
		_ = r.cmd.Process.Kill()
		<-r.done
		// Go on as after a kill: the invariants must hold all the same.
		t.Errorf("bounded run broken: kubeplan did not exit within %s of the stall with --request-timeout 5s --timeout 60s (killed %s after it started); --timeout must bound the whole run\n%s",
			stallBound, r.elapsed(), r.output())
	}
	e.checkAfterFailure(s.before, s.desired)
	e.converge(s.desired)
}
