package apply

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"os"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/kubeplan/kubeplan/internal/kube"
)

// lockLeaseGVR is where the apply lock lives: a coordination.k8s.io Lease, which
// the built-in edit role may get, create, update and delete.
var lockLeaseGVR = schema.GroupVersionResource{Group: "coordination.k8s.io", Version: "v1", Resource: "leases"}

// DefaultLockDuration is how long a lock lives without renewal.
const DefaultLockDuration = 60 * time.Second

// lockAcquireAttempts bounds the create/read/take-over loop when the Lease keeps
// changing under us (deleted or taken over between our requests).
const lockAcquireAttempts = 5

// LockOptions says which Lease to hold, as whom, and for how long.
type LockOptions struct {
	Namespace string // of the Lease; the client's namespace when empty
	Name      string // of the Lease, derived by the caller from the ApplySet, e.g. "kubeplan-lock-<parent name>"
	// Holder identifies this process in the Lease and in LockedError;
	// hostname, pid and a random suffix when empty.
	Holder string
	// Duration is the lease duration (default 60s, whole seconds in the
	// Lease); the lock is renewed every Duration/3 while held.
	Duration time.Duration
}

// LockedError says another holder has the lock and its Lease has not
// expired.
type LockedError struct {
	Holder  string
	Expires time.Time
	// Renewed is the holder's last renewal; Stale is true when the holder
	// has missed its renewals (it crashed, or is stopped or cut off).
	Renewed time.Time
	Stale   bool
}

func (e *LockedError) Error() string {
	if e.Stale {
		return fmt.Sprintf("the ApplySet is locked by %s until %s, but that holder has not renewed the lock since %s: it may be dead. "+
			"Retry after %[2]s, or break the lock now with kubeplan unlock (same -n and --applyset)",
			e.Holder, e.Expires.UTC().Format(time.RFC3339), e.Renewed.UTC().Format(time.RFC3339))
	}
	return fmt.Sprintf("the ApplySet is locked by %s until %s (another kubeplan apply is running); retry later",
		e.Holder, e.Expires.UTC().Format(time.RFC3339))
}

// Lock is a held apply lock. It renews itself until Release; Lost is closed
// if it stops being ours before that.
type Lock struct {
	leases   dynamic.ResourceInterface
	ref      string // namespace/name, for errors
	holder   string
	duration time.Duration

	mu        sync.Mutex
	lease     *unstructured.Unstructured // last version we wrote
	lastRenew time.Time                  // local time of our last successful write

	stop, done chan struct{}
	lost       chan struct{}
	lostOnce   sync.Once
	release    sync.Once
	releaseErr error
}

// AcquireLock takes the Lease opts.Name, or fails at once with *LockedError
// if another holder has it and has renewed it within its duration. An
// expired Lease (a crashed holder) or one already held by opts.Holder is
// taken over, with an update conditional on the version read, so of two
// racing processes exactly one wins.
func AcquireLock(ctx context.Context, c *kube.Client, opts LockOptions) (*Lock, error) {
	if opts.Name == "" {
		return nil, errors.New("apply lock: no Lease name")
	}
	if opts.Namespace == "" {
		opts.Namespace = c.Namespace
	}
	if opts.Holder == "" {
		opts.Holder = DefaultLockHolder()
	}
	if opts.Duration <= 0 {
		opts.Duration = DefaultLockDuration
	}
	l := &Lock{
		leases:   c.Dynamic.Resource(lockLeaseGVR).Namespace(opts.Namespace),
		ref:      opts.Namespace + "/" + opts.Name,
		holder:   opts.Holder,
		duration: opts.Duration,
		stop:     make(chan struct{}),
		done:     make(chan struct{}),
		lost:     make(chan struct{}),
	}
	for range lockAcquireAttempts {
		now := time.Now()
		created, err := l.leases.Create(ctx, l.newLease(opts.Name, now), metav1.CreateOptions{})
		if err == nil {
			l.held(created, now)
			return l, nil
		}
		if !apierrors.IsAlreadyExists(err) {
			return nil, fmt.Errorf("apply lock: creating Lease %s: %w", l.ref, err)
		}
		cur, err := l.leases.Get(ctx, opts.Name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			continue // released in between: create again
		}
		if err != nil {
			return nil, fmt.Errorf("apply lock: reading Lease %s: %w", l.ref, err)
		}
		holder, expires := lockLeaseState(cur)
		now = time.Now()
		if holder != "" && holder != l.holder && now.Before(expires) {
			_, renewed, period := leaseRenewal(cur)
			return nil, &LockedError{Holder: holder, Expires: expires, Renewed: renewed, Stale: now.Sub(renewed) >= period+renewSlack}
		}
		taken, err := l.leases.Update(ctx, l.takeOver(cur, now), metav1.UpdateOptions{})
		if apierrors.IsConflict(err) || apierrors.IsNotFound(err) {
			continue // someone else moved first: look again
		}
		if err != nil {
			return nil, fmt.Errorf("apply lock: taking over Lease %s from %s: %w", l.ref, holder, err)
		}
		l.held(taken, now)
		return l, nil
	}
	return nil, fmt.Errorf("apply lock: Lease %s kept changing during %d attempts to acquire it", l.ref, lockAcquireAttempts)
}

// DefaultLockHolder is "hostname-pid-random".
func DefaultLockHolder() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "unknown-host"
	}
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return fmt.Sprintf("%s-%d-%s", host, os.Getpid(), hex.EncodeToString(b))
}

// Holder is the identity this lock is held as.
func (l *Lock) Holder() string { return l.holder }

// Lost is closed when the lock stopped being ours before Release: someone
// took it over or deleted it, or it could not be renewed before it expired.
// A caller should stop writing then.
func (l *Lock) Lost() <-chan struct{} { return l.lost }

// Release stops renewing and deletes the Lease, on the condition that it is
// still the version we last wrote, so a lock taken over by someone else is
// left alone (and reported as an error). Releasing twice is harmless.
func (l *Lock) Release(ctx context.Context) error {
	l.release.Do(func() {
		close(l.stop)
		<-l.done
		l.mu.Lock()
		lease := l.lease
		l.mu.Unlock()
		rv := lease.GetResourceVersion()
		err := l.leases.Delete(ctx, lease.GetName(), metav1.DeleteOptions{Preconditions: &metav1.Preconditions{ResourceVersion: &rv}})
		switch {
		case err == nil, apierrors.IsNotFound(err):
		case apierrors.IsConflict(err):
			l.releaseErr = fmt.Errorf("apply lock: Lease %s is no longer ours (%s); left in place", l.ref, l.currentHolder(ctx))
		default:
			l.releaseErr = fmt.Errorf("apply lock: deleting Lease %s: %w", l.ref, err)
		}
	})
	return l.releaseErr
}

// held records the Lease we wrote and starts renewing it.
func (l *Lock) held(lease *unstructured.Unstructured, at time.Time) {
	l.lease, l.lastRenew = lease, at
	go l.renew()
}

// renew updates renewTime every duration/3 until Release or loss.
func (l *Lock) renew() {
	defer close(l.done)
	period := l.duration / 3
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), period)
		ok := l.renewOnce(ctx)
		cancel()
		if !ok {
			l.lostOnce.Do(func() { close(l.lost) })
			return
		}
	}
}

// renewOnce writes a new renewTime; it reports false when the lock is lost.
// A failed request is retried at the next tick unless the lease would have
// expired by then.
func (l *Lock) renewOnce(ctx context.Context) bool {
	l.mu.Lock()
	next := l.lease.DeepCopy()
	l.mu.Unlock()
	now := time.Now()
	_ = unstructured.SetNestedField(next.Object, lockMicroTime(now), "spec", "renewTime")
	updated, err := l.leases.Update(ctx, next, metav1.UpdateOptions{})
	switch {
	case err == nil:
		l.mu.Lock()
		l.lease, l.lastRenew = updated, now
		l.mu.Unlock()
		return true
	case apierrors.IsNotFound(err):
		return false // deleted by someone else
	case apierrors.IsConflict(err):
		// Ours still if an earlier renewal was written but its answer lost.
		cur, gerr := l.leases.Get(ctx, next.GetName(), metav1.GetOptions{})
		if gerr != nil {
			return false
		}
		if holder, _ := lockLeaseState(cur); holder != l.holder {
			return false // taken over
		}
		l.mu.Lock()
		l.lease = cur
		l.mu.Unlock()
		return true
	default:
		l.mu.Lock()
		deadline := l.lastRenew.Add(l.duration - l.duration/3)
		l.mu.Unlock()
		return time.Now().Before(deadline)
	}
}

// currentHolder names who has the Lease now, for Release's error.
func (l *Lock) currentHolder(ctx context.Context) string {
	cur, err := l.leases.Get(ctx, l.lease.GetName(), metav1.GetOptions{})
	if err != nil {
		return "could not read it: " + err.Error()
	}
	holder, _ := lockLeaseState(cur)
	return "held by " + holder
}

// newLease is the Lease a first holder creates.
func (l *Lock) newLease(name string, now time.Time) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "coordination.k8s.io/v1",
		"kind":       "Lease",
		"metadata": map[string]any{
			"name":   name,
			"labels": map[string]any{"app.kubernetes.io/managed-by": "kubeplan"},
		},
	}}
	l.setHolder(u, now)
	return u
}

// takeOver rewrites a read Lease (keeping its resourceVersion) for us.
func (l *Lock) takeOver(cur *unstructured.Unstructured, now time.Time) *unstructured.Unstructured {
	u := cur.DeepCopy()
	if prev, _, _ := unstructured.NestedString(u.Object, "spec", "holderIdentity"); prev != l.holder {
		n, _, _ := unstructured.NestedInt64(u.Object, "spec", "leaseTransitions")
		_ = unstructured.SetNestedField(u.Object, n+1, "spec", "leaseTransitions")
	}
	l.setHolder(u, now)
	return u
}

func (l *Lock) setHolder(u *unstructured.Unstructured, now time.Time) {
	secs := int64(math.Ceil(l.duration.Seconds()))
	_ = unstructured.SetNestedField(u.Object, l.holder, "spec", "holderIdentity")
	_ = unstructured.SetNestedField(u.Object, secs, "spec", "leaseDurationSeconds")
	_ = unstructured.SetNestedField(u.Object, lockMicroTime(now), "spec", "acquireTime")
	_ = unstructured.SetNestedField(u.Object, lockMicroTime(now), "spec", "renewTime")
}

// lockLeaseState reads a Lease's holder and when it expires: renewTime (else
// acquireTime) plus leaseDurationSeconds. A Lease without times has expired.
func lockLeaseState(u *unstructured.Unstructured) (holder string, expires time.Time) {
	holder, _, _ = unstructured.NestedString(u.Object, "spec", "holderIdentity")
	secs, _, _ := unstructured.NestedInt64(u.Object, "spec", "leaseDurationSeconds")
	at, _, _ := unstructured.NestedString(u.Object, "spec", "renewTime")
	if at == "" {
		at, _, _ = unstructured.NestedString(u.Object, "spec", "acquireTime")
	}
	t, err := time.Parse(time.RFC3339Nano, at)
	if err != nil {
		return holder, time.Time{}
	}
	return holder, t.Add(time.Duration(secs) * time.Second)
}

// lockMicroTime writes a MicroTime as the API server does.
func lockMicroTime(t time.Time) string { return t.UTC().Format(metav1.RFC3339Micro) }
