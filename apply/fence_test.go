package apply

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"k8s.io/client-go/tools/clientcmd"

	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
	"github.com/kubeplan/kubeplan/plan"
)

// partitionable is a client whose requests fail while cut is set, as if
// the network between it and the API server were partitioned.
func partitionable(t *testing.T, kubeconfig, ns string) (*kube.Client, *atomic.Bool) {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	var cut atomic.Bool
	cfg.WrapTransport = func(rt http.RoundTripper) http.RoundTripper {
		return roundTripFunc(func(r *http.Request) (*http.Response, error) {
			if cut.Load() {
				return nil, errors.New("partitioned")
			}
			return rt.RoundTrip(r)
		})
	}
	c, err := kube.NewForConfig(cfg, ns)
	if err != nil {
		t.Fatal(err)
	}
	return c, &cut
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// A holder partitioned past its Lease knows it lost the lock before any
// renewal tells it: Check fails, the fenced context is cancelled with
// ErrLockLost as its cause, and fenceCheck stops the next write.
func TestIntegrationFenceStopsALostHolder(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	kc := c.Narrow(t, "fence", ns)
	a, cut := partitionable(t, kc, ns)
	lock, err := AcquireLock(t.Context(), a, LockOptions{Name: "kubeplan-lock-set", Duration: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Release(context.Background())
	fenced, cancel := lock.Fence(context.Background())
	defer cancel()
	if err := fenceCheck(fenced); err != nil {
		t.Fatalf("a fresh lock is fenced off: %v", err)
	}
	cut.Store(true)
	select {
	case <-fenced.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the fenced context was not cancelled 10 s after the Lease ran out")
	}
	if !errors.Is(context.Cause(fenced), ErrLockLost) || !errors.Is(fenceCheck(fenced), ErrLockLost) || !errors.Is(lock.Check(), ErrLockLost) {
		t.Errorf("cause %v, fenceCheck %v, Check %v; want ErrLockLost", context.Cause(fenced), fenceCheck(fenced), lock.Check())
	}
	// Another apply takes the expired Lease over; healed, the first one
	// still writes nothing.
	b := lockTestNarrow(t, c, ns)
	var lb *Lock
	for deadline := time.Now().Add(10 * time.Second); lb == nil; time.Sleep(200 * time.Millisecond) {
		if lb, err = AcquireLock(t.Context(), b, LockOptions{Name: "kubeplan-lock-set", Duration: 3 * time.Second}); err != nil && time.Now().After(deadline) {
			t.Fatalf("the expired lock was not taken over: %v", err)
		}
	}
	defer lb.Release(context.Background())
	cut.Store(false)
	if err := fenceCheck(fenced); !errors.Is(err, ErrLockLost) {
		t.Errorf("after the heal: %v", err)
	}
}

// The parent is written only on the version this run last saw. A stale run
// whose set was changed by another writer meanwhile (a wider
// contains-group-kinds) does not overwrite it; a change to the record alone
// (a concurrent no-op run's checked-at) is retried.
func TestIntegrationParentWriteIsConditional(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	cl := lockTestClient(t, c.Narrow(t, "parent", ns), ns)
	as := applyset.Parent{Kind: "ConfigMap", Name: "set", Namespace: ns}
	keep := []plan.Change{{Ref: plan.Ref{Version: "v1", Kind: "ConfigMap", Namespace: ns, Name: "a"}, Action: plan.Create}}
	w := &parentWriter{c: cl, p: &plan.Plan{}, opts: Options{ApplySet: &as, FieldManager: "kubeplan", Version: "test"}}
	if err := w.writeUnion(t.Context(), keep); err != nil {
		t.Fatal(err)
	}
	kinds := func() string {
		return c.Kubectl(t, "-n", ns, "get", "configmap", "set", "-o", `jsonpath={.metadata.annotations.applyset\.kubernetes\.io/contains-group-kinds}`)
	}
	// A concurrent no-op run notes its check time: the record is retried.
	c.Kubectl(t, "-n", ns, "annotate", "configmap", "set", AnnotationCheckedAt+"=2000-01-01T00:00:00Z", "--overwrite")
	if err := w.recordResult(t.Context(), nil, keep, true); err != nil {
		t.Fatalf("a record-only change made the write fail: %v", err)
	}
	// Another writer widened the set (it added Services): this run's stale
	// copy is refused, and the wider set stays.
	c.Kubectl(t, "-n", ns, "annotate", "configmap", "set", applyset.AnnotationGroupKinds+"=ConfigMap,Service", "--overwrite")
	err := w.recordResult(t.Context(), nil, keep, true)
	if err == nil || !strings.Contains(err.Error(), "changed by another writer") {
		t.Fatalf("stale write: %v", err)
	}
	if got := kinds(); got != "ConfigMap,Service" {
		t.Errorf("contains-group-kinds %q after a stale write, want ConfigMap,Service", got)
	}
}

// unlock breaks only a lock whose holder stopped renewing it.
func TestIntegrationUnlockRefusesALiveHolder(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	cl := lockTestNarrow(t, c, ns)
	as := applyset.Parent{Kind: "ConfigMap", Name: "set", Namespace: ns}
	if u, err := Unlock(t.Context(), cl, as); u != nil || err != nil {
		t.Fatalf("no lock: %+v %v", u, err)
	}
	live, err := AcquireLock(t.Context(), cl, LockOptions{Name: LockName(as), Holder: "alive-1"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Unlock(t.Context(), cl, as)
	if err == nil || !strings.Contains(err.Error(), "held by alive-1, which renewed it") || !strings.Contains(err.Error(), "that apply is alive") {
		t.Fatalf("live holder: %v", err)
	}
	if h := lockTestHolder(t, cl, LockName(as)); h != "alive-1" {
		t.Errorf("the live lock was broken: holder %q", h)
	}
	if err := live.Release(t.Context()); err != nil {
		t.Fatal(err)
	}
}
