package faults

import (
	"syscall"
	"testing"
)

// SIGKILL at each phase: whatever was done stays done, nothing is pruned
// early, and the next run (once the dead holder's Lease expired)
// converges.
func TestKillDuringPlan(t *testing.T) {
	e := newEnv(t)
	s := e.setUp()
	r := e.startFaulted(s)
	e.inPlan(r, s)
	r.signal(syscall.SIGKILL)
	r.wait(runBound)
	e.checkNothingWritten(s)
	e.checkAfterFailure(s.before, s.desired)
	e.converge(s.desired)
}

func TestKillDuringWrites(t *testing.T) {
	e := newEnv(t)
	s := e.setUp()
	r := e.startFaulted(s)
	e.inWrites(r, s)
	r.signal(syscall.SIGKILL)
	r.wait(runBound)
	e.checkAfterFailure(s.before, s.desired)
	e.converge(s.desired)
}

func TestKillDuringPrune(t *testing.T) {
	e := newEnv(t)
	s := e.setUp()
	r := e.startFaulted(s)
	e.inPrune(r, s)
	r.signal(syscall.SIGKILL)
	r.wait(runBound)
	e.checkAfterFailure(s.before, s.desired)
	e.converge(s.desired)
}
