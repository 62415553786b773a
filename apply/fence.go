package apply

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ErrLockLost stops a run whose Lease is no longer its own: taken over after
// it expired (the process was stopped, the network partitioned), deleted, or
// not renewed in time. Nothing more is written once it is lost.
var ErrLockLost = errors.New("the apply lock was lost (another apply may have taken over); stopped writing")

// validity is how long after its last renewal this process trusts its
// Lease: less than the Lease's duration, so that clock skew between this
// machine and the next holder's cannot let two writers overlap.
func (l *Lock) validity() time.Duration { return l.duration - l.duration/6 }

// Check reports ErrLockLost when the lock is no longer certainly ours:
// Lost was closed, or the last renewal is older than the Lease's validity
// (a process resumed after SIGSTOP learns it here, before its renewal
// goroutine has run).
func (l *Lock) Check() error {
	select {
	case <-l.lost:
		return ErrLockLost
	default:
	}
	l.mu.Lock()
	last := l.lastRenew
	l.mu.Unlock()
	if time.Since(last) >= l.validity() {
		return fmt.Errorf("%w (last renewed %s ago)", ErrLockLost, time.Since(last).Round(time.Second))
	}
	return nil
}

// Fence returns a context that is cancelled, with ErrLockLost as its
// cause, as soon as the lock is lost or its validity runs out: every
// request made with it stops at once. fenceCheck(ctx) is the same test
// for a write about to start.
func (l *Lock) Fence(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(context.WithValue(parent, fenceKey{}, l))
	go func() {
		t := time.NewTimer(l.validity())
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-l.lost:
				cancel(ErrLockLost)
				return
			case <-t.C:
				if err := l.Check(); err != nil {
					cancel(err)
					return
				}
				l.mu.Lock()
				next := time.Until(l.lastRenew.Add(l.validity()))
				l.mu.Unlock()
				t.Reset(max(next, 10*time.Millisecond))
			}
		}
	}()
	return ctx, func() { cancel(nil) }
}

type fenceKey struct{}

// fenceCheck is called before every write: it fails when ctx is fenced by
// a lock that is no longer ours, or was cancelled.
func fenceCheck(ctx context.Context) error {
	if l, ok := ctx.Value(fenceKey{}).(*Lock); ok {
		if err := l.Check(); err != nil {
			return err
		}
	}
	if ctx.Err() != nil {
		if cause := context.Cause(ctx); cause != nil {
			return cause
		}
		return ctx.Err()
	}
	return nil
}
