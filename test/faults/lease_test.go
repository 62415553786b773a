package faults

import (
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/internal/testing/faultproxy"
)

// SIGSTOP past the Lease: apply A holds the lock and is writing when it is
// stopped; its Lease expires (KUBEPLAN_LOCK_DURATION=5s, or the default 60 s
// until kubeplan reads that variable); apply B takes the lock and adds
// Services to the set; then A resumes. A must not write from its stale
// view: not narrow the parent (which must still list Service, and every
// labelled member's kind), not prune B's objects.
func TestStopPastLease(t *testing.T) {
	e := newEnv(t)
	a := objs("ConfigMap", "a", 200)
	setup := e.start(e.corpus(objs("ConfigMap", "keep", 1)...))
	if code := setup.wait(runBound); code != 0 {
		t.Fatalf("setting up the set: exit %d\n%s", code, setup.output())
	}
	before := e.snapshot()

	e.proxy.Latency(faultLatency)
	ra := e.start(e.corpus(join(objs("ConfigMap", "keep", 1), a)...), "--concurrency", "2")
	e.waitFor(ra, "A's writes", func() bool { return e.countNow(a) >= 3 })
	if !e.lockHeld() {
		t.Fatalf("test setup: A is writing but no live Lease holds the set")
	}
	holderA, _ := e.lease()
	ra.signal(syscall.SIGSTOP)
	stopped := time.Now()
	e.waitLockFree()
	t.Logf("A (%s) stopped with %d of %d written; its Lease expired %s later", holderA, e.countNow(a), len(a), time.Since(stopped).Round(time.Second))

	// B goes straight to the server through a proxy of its own.
	pb := faultproxy.ForKubeconfig(t, e.c.AdminKubeconfig())
	kcB := faultproxy.KubeconfigVia(t, e.c.Narrow(t, "editb", e.ns), pb)
	web := objs("Service", "web", 3)
	desiredB := join(objs("ConfigMap", "keep", 1), a, web)
	rb := e.startAs(kcB, setName, e.corpus(desiredB...))
	if code := rb.wait(runBound); code != 0 {
		t.Fatalf("apply B, after A's Lease expired: exit %d, want 0 (B must take over the expired lock)\n%s", code, rb.output())
	}
	afterB := e.snapshot()
	if !slices.Contains(afterB.kinds, "Service") {
		t.Fatalf("after B the parent's kinds are %v, want Service among them", afterB.kinds)
	}

	e.proxy.Latency(0)
	ra.signal(syscall.SIGCONT)
	codeA := ra.wait(runBound)
	t.Logf("A resumed and exited %d", codeA)
	if codeA == 0 {
		t.Errorf("A exited 0 after it lost its Lease while stopped: a fenced apply fails when the lock is lost\n%s", ra.output())
	}
	now := e.snapshot()
	if !slices.Contains(now.kinds, "Service") {
		t.Errorf("invariant (b) broken: A resumed and wrote the parent from its stale copy: %s is %q, B's Service is gone from it",
			"applyset.kubernetes.io/contains-group-kinds", strings.Join(now.kinds, ","))
	}
	e.checkParentCovers("after A resumed", now)
	if n := now.count(web); n != len(web) {
		t.Errorf("invariant (a)/(c) broken: A resumed after losing its Lease and pruned %d of B's Services", len(web)-n)
	}
	e.checkNoPruneBeforeWrites(before, now, desiredB)
	e.checkBystander()
	e.converge(desiredB)
}
