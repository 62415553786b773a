package apply

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

func TestMain(m *testing.M) { testkube.Main(m) }

func TestLockedErrorMessage(t *testing.T) {
	e := &LockedError{Holder: "ci-7-1234-ab12cd34", Expires: time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)}
	want := "the ApplySet is locked by ci-7-1234-ab12cd34 until 2030-01-02T03:04:05Z (another kubeplan apply is running); retry later"
	if got := e.Error(); got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	e.Stale, e.Renewed = true, time.Date(2030, 1, 2, 3, 3, 5, 0, time.UTC)
	want = "the ApplySet is locked by ci-7-1234-ab12cd34 until 2030-01-02T03:04:05Z, but that holder has not renewed the lock since 2030-01-02T03:03:05Z: it may be dead. " +
		"Retry after 2030-01-02T03:04:05Z, or break the lock now with kubeplan unlock (same -n and --applyset)"
	if got := e.Error(); got != want {
		t.Errorf("stale: Error() = %q, want %q", got, want)
	}
}

func TestLockLeaseState(t *testing.T) {
	u := &unstructured.Unstructured{Object: map[string]any{"spec": map[string]any{
		"holderIdentity": "a", "leaseDurationSeconds": int64(5), "renewTime": "2030-01-02T03:04:05.123456Z",
	}}}
	holder, exp := lockLeaseState(u)
	if want := time.Date(2030, 1, 2, 3, 4, 10, 123456000, time.UTC); holder != "a" || !exp.Equal(want) {
		t.Errorf("got %q %v, want a %v", holder, exp, want)
	}
	if got := lockMicroTime(time.Date(2030, 1, 2, 3, 4, 5, 7000, time.UTC)); got != "2030-01-02T03:04:05.000007Z" {
		t.Errorf("MicroTime %q", got)
	}
	if a, b := DefaultLockHolder(), DefaultLockHolder(); a == b || a == "" {
		t.Errorf("default holders %q and %q should differ", a, b)
	}
}

// lockTestClient is a client for kubeconfig in ns.
func lockTestClient(t *testing.T, kubeconfig, ns string) *kube.Client {
	t.Helper()
	c, err := kube.NewFromKubeconfig(kubeconfig, ns)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// lockTestNarrow mints a user bound to the edit ClusterRole in ns only and
// returns its client.
func lockTestNarrow(t *testing.T, c *testkube.Cluster, ns string) *kube.Client {
	t.Helper()
	kc := c.Narrow(t, "locker", ns)
	return lockTestClient(t, kc, ns)
}

func lockTestLease(t *testing.T, cl *kube.Client, name string) (*unstructured.Unstructured, error) {
	t.Helper()
	return cl.Dynamic.Resource(lockLeaseGVR).Namespace(cl.Namespace).Get(context.Background(), name, metav1.GetOptions{})
}

func lockTestHolder(t *testing.T, cl *kube.Client, name string) string {
	t.Helper()
	u, err := lockTestLease(t, cl, name)
	if err != nil {
		t.Fatalf("reading Lease %s: %v", name, err)
	}
	h, _ := lockLeaseState(u)
	return h
}

func lockTestAcquire(t *testing.T, cl *kube.Client, opts LockOptions) *Lock {
	t.Helper()
	l, err := AcquireLock(context.Background(), cl, opts)
	if err != nil {
		t.Fatalf("AcquireLock(%s as %s): %v", opts.Name, opts.Holder, err)
	}
	t.Cleanup(func() { _ = l.Release(context.Background()) })
	return l
}

func lockTestLocked(t *testing.T, err error, holder string) {
	t.Helper()
	var le *LockedError
	if !errors.As(err, &le) {
		t.Fatalf("want *LockedError by %s, got %v", holder, err)
	}
	if le.Holder != holder || !le.Expires.After(time.Now()) {
		t.Errorf("LockedError = %+v, want holder %s and a future expiry", le, holder)
	}
}

func TestIntegrationLock(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	cl := lockTestNarrow(t, c, ns)
	ctx := context.Background()

	t.Run("acquire, locked, release, reacquire", func(t *testing.T) {
		t.Parallel()
		name := "kubeplan-lock-basic"
		a := lockTestAcquire(t, cl, LockOptions{Name: name, Holder: "holder-a"})
		u, err := lockTestLease(t, cl, name)
		if err != nil {
			t.Fatal(err)
		}
		if h, exp := lockLeaseState(u); h != "holder-a" || exp.Sub(time.Now()) < 50*time.Second {
			t.Errorf("Lease holder %q expires %v, want holder-a in about 60s", h, exp)
		}
		if d, _, _ := unstructured.NestedInt64(u.Object, "spec", "leaseDurationSeconds"); d != 60 {
			t.Errorf("leaseDurationSeconds = %d, want the default 60", d)
		}

		_, err = AcquireLock(ctx, cl, LockOptions{Name: name, Holder: "holder-b"})
		lockTestLocked(t, err, "holder-a")
		if err != nil && !strings.Contains(err.Error(), "locked by holder-a until") {
			t.Errorf("message: %v", err)
		}

		if err := a.Release(ctx); err != nil {
			t.Fatalf("Release: %v", err)
		}
		if _, err := lockTestLease(t, cl, name); !apierrors.IsNotFound(err) {
			t.Errorf("Lease after Release: %v, want NotFound", err)
		}
		if err := a.Release(ctx); err != nil {
			t.Errorf("second Release: %v", err)
		}
		b := lockTestAcquire(t, cl, LockOptions{Name: name, Holder: "holder-b"})
		if h := lockTestHolder(t, cl, name); h != "holder-b" {
			t.Errorf("holder after reacquire %q", h)
		}
		if err := b.Release(ctx); err != nil {
			t.Errorf("Release b: %v", err)
		}
	})

	t.Run("expired holder is taken over", func(t *testing.T) {
		t.Parallel()
		name := "kubeplan-lock-crashed"
		crashed := &Lock{holder: "crashed", duration: 5 * time.Second}
		lease := crashed.newLease(name, time.Now().Add(-10*time.Minute))
		if _, err := cl.Dynamic.Resource(lockLeaseGVR).Namespace(ns).Create(ctx, lease, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		l := lockTestAcquire(t, cl, LockOptions{Name: name, Holder: "rescuer"})
		u, err := lockTestLease(t, cl, name)
		if err != nil {
			t.Fatal(err)
		}
		n, _, _ := unstructured.NestedInt64(u.Object, "spec", "leaseTransitions")
		if h, exp := lockLeaseState(u); h != "rescuer" || !exp.After(time.Now()) || n != 1 {
			t.Errorf("after take-over: holder %q expires %v transitions %d", h, exp, n)
		}
		if err := l.Release(ctx); err != nil {
			t.Errorf("Release: %v", err)
		}
	})

	t.Run("racing acquirers, exactly one wins", func(t *testing.T) {
		t.Parallel()
		for _, expired := range []bool{false, true} {
			name := "kubeplan-lock-race-new"
			if expired {
				name = "kubeplan-lock-race-expired"
				old := (&Lock{holder: "crashed", duration: 5 * time.Second}).newLease(name, time.Now().Add(-10*time.Minute))
				if _, err := cl.Dynamic.Resource(lockLeaseGVR).Namespace(ns).Create(ctx, old, metav1.CreateOptions{}); err != nil {
					t.Fatal(err)
				}
			}
			const n = 4
			var wg sync.WaitGroup
			start := make(chan struct{})
			locks := make([]*Lock, n)
			errs := make([]error, n)
			for i := range n {
				wg.Go(func() {
					<-start
					locks[i], errs[i] = AcquireLock(ctx, cl, LockOptions{Name: name})
				})
			}
			close(start)
			wg.Wait()
			var won []*Lock
			for i := range n {
				if errs[i] == nil {
					won = append(won, locks[i])
					continue
				}
				var le *LockedError
				if !errors.As(errs[i], &le) {
					t.Errorf("expired=%v: loser %d: %v, want *LockedError", expired, i, errs[i])
				}
			}
			if len(won) != 1 {
				t.Fatalf("expired=%v: %d winners (errors %v), want exactly one", expired, len(won), errs)
			}
			for i := range n {
				if errs[i] != nil {
					lockTestLocked(t, errs[i], won[0].Holder())
				}
			}
			if err := won[0].Release(ctx); err != nil {
				t.Errorf("Release: %v", err)
			}
		}
	})

	t.Run("renewal keeps it past its duration", func(t *testing.T) {
		t.Parallel()
		name := "kubeplan-lock-renew"
		l := lockTestAcquire(t, cl, LockOptions{Name: name, Holder: "long-runner", Duration: 3 * time.Second})
		select {
		case <-l.Lost():
			t.Fatal("lock lost while held")
		case <-time.After(5 * time.Second):
		}
		_, err := AcquireLock(ctx, cl, LockOptions{Name: name, Holder: "impatient"})
		lockTestLocked(t, err, "long-runner")
		if err := l.Release(ctx); err != nil {
			t.Errorf("Release: %v", err)
		}
	})

	t.Run("release after take-over leaves the new holder's lock", func(t *testing.T) {
		t.Parallel()
		name := "kubeplan-lock-stolen"
		l := lockTestAcquire(t, cl, LockOptions{Name: name, Holder: "slow", Duration: 3 * time.Second})
		// Someone takes it over (as after an expiry while we were stalled).
		u, err := lockTestLease(t, cl, name)
		if err != nil {
			t.Fatal(err)
		}
		_ = unstructured.SetNestedField(u.Object, "thief", "spec", "holderIdentity")
		_ = unstructured.SetNestedField(u.Object, int64(60), "spec", "leaseDurationSeconds")
		_ = unstructured.SetNestedField(u.Object, lockMicroTime(time.Now()), "spec", "renewTime")
		if _, err := cl.Dynamic.Resource(lockLeaseGVR).Namespace(ns).Update(ctx, u, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		select {
		case <-l.Lost():
		case <-time.After(5 * time.Second):
			t.Error("Lost() not closed after the take-over")
		}
		if err := l.Release(ctx); err == nil || !strings.Contains(err.Error(), "held by thief") {
			t.Errorf("Release of a taken-over lock: %v, want an error naming thief", err)
		}
		if h := lockTestHolder(t, cl, name); h != "thief" {
			t.Errorf("holder after our Release %q, want thief's lock kept", h)
		}

		// Released before renewal noticed: the precondition still protects it.
		name2 := "kubeplan-lock-stolen-quick"
		l2 := lockTestAcquire(t, cl, LockOptions{Name: name2, Holder: "slow"})
		u2, err := lockTestLease(t, cl, name2)
		if err != nil {
			t.Fatal(err)
		}
		_ = unstructured.SetNestedField(u2.Object, "thief", "spec", "holderIdentity")
		if _, err := cl.Dynamic.Resource(lockLeaseGVR).Namespace(ns).Update(ctx, u2, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		if err := l2.Release(ctx); err == nil {
			t.Error("Release of a taken-over lock succeeded")
		}
		if h := lockTestHolder(t, cl, name2); h != "thief" {
			t.Errorf("holder after our Release %q, want thief's lock kept", h)
		}
	})
}
