package faults

import "time"

// The corpus the network and process cases share. The set starts as keep
// and old (applied without faults); the faulted run applies keep, added
// ConfigMaps and added Services: it writes many objects, widens the
// parent by a kind, and prunes many.
const (
	nOld   = 200
	nAdded = 200
	// faultLatency and faultConcurrency stretch every phase of the faulted
	// run to seconds, so that a fault lands inside the phase it aims at.
	faultLatency     = 20 * time.Millisecond
	faultConcurrency = "4"
)

type scenario struct {
	keep, old, added []obj
	desired          []obj // keep + added
	before           snapshot
}

// setUp applies keep + old through the (healthy) proxy and sets the
// latency for the faulted run.
func (e *env) setUp() *scenario {
	e.t.Helper()
	s := &scenario{
		keep:  objs("ConfigMap", "keep", 1),
		old:   objs("ConfigMap", "old", nOld),
		added: join(objs("ConfigMap", "new", nAdded), objs("Service", "web", 3)),
	}
	s.desired = join(s.keep, s.added)
	r := e.start(e.corpus(join(s.keep, s.old)...))
	if code := r.wait(runBound); code != 0 {
		e.t.Fatalf("setting up the set: exit %d\n%s", code, r.output())
	}
	s.before = e.snapshot()
	if n := s.before.count(join(s.keep, s.old)); n != 1+nOld {
		e.t.Fatalf("setting up the set: %d members, want %d", n, 1+nOld)
	}
	e.proxy.Latency(faultLatency)
	return s
}

// startFaulted starts the faulted run: the desired set, slowed down.
func (e *env) startFaulted(s *scenario, extra ...string) *run {
	return e.start(e.corpus(s.desired...), append([]string{"--concurrency", faultConcurrency}, extra...)...)
}

// inPlan waits until r is planning: it has talked to the server for a
// while but holds no lock and has written nothing. It fails the test if
// planning ended before.
func (e *env) inPlan(r *run, s *scenario) {
	e.t.Helper()
	e.waitFor(r, "traffic through the proxy", func() bool { return e.proxy.Stats().Bytes > 0 })
	deadline := time.Now().Add(1500 * time.Millisecond)
	e.waitFor(r, "1.5 s of planning", func() bool { return time.Now().After(deadline) })
	if e.lockHeld() || e.countNow(s.added) > 0 {
		e.t.Fatalf("test timing: kubeplan already holds the lock or wrote after %s; the fault would not land in the plan phase (raise faultLatency)", r.elapsed())
	}
}

// inWrites waits until r has written some of the added objects.
func (e *env) inWrites(r *run, s *scenario) {
	e.t.Helper()
	e.waitFor(r, "the writes", func() bool { return e.countNow(s.added) >= 3 })
}

// inPrune waits until r has pruned some of the old members.
func (e *env) inPrune(r *run, s *scenario) {
	e.t.Helper()
	e.waitFor(r, "the prune", func() bool { return e.countNow(s.old) < nOld })
}

// checkNothingWritten: a run stopped while planning wrote nothing at all.
func (e *env) checkNothingWritten(s *scenario) {
	e.t.Helper()
	now := e.snapshot()
	for r, m := range s.before.members {
		if n, ok := now.members[r]; !ok || n.rv != m.rv {
			e.t.Errorf("a run stopped while planning wrote %s (it must write nothing before planning passed)", r)
		}
	}
	if n := now.count(s.added); n > 0 {
		e.t.Errorf("a run stopped while planning created %d objects (it must write nothing before planning passed)", n)
	}
	if now.parent.GetResourceVersion() != s.before.parent.GetResourceVersion() {
		e.t.Errorf("a run stopped while planning wrote the parent (it must write nothing before planning passed)")
	}
}
