package apply

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/kube"
)

// WaitUnlocked waits until the ApplySet's lock is free: its Lease deleted
// (the holder released it) or expired (the holder stopped renewing it).
// It reads the Lease every poll and writes nothing; it returns ctx's error
// when ctx ends first. A caller that got a *LockedError waits with it and
// then runs again (kubeplan serve, whose replicas take turns).
func WaitUnlocked(ctx context.Context, c *kube.Client, as applyset.Parent, poll time.Duration) error {
	if poll <= 0 {
		poll = time.Second
	}
	leases := c.Dynamic.Resource(lockLeaseGVR).Namespace(as.Namespace)
	name := LockName(as)
	for {
		cur, err := leases.Get(ctx, name, metav1.GetOptions{})
		switch {
		case apierrors.IsNotFound(err):
			return nil
		case err == nil:
			if _, expires := lockLeaseState(cur); !time.Now().Before(expires) {
				return nil
			}
		case ctx.Err() == nil:
			return fmt.Errorf("apply lock: reading Lease %s/%s: %w", as.Namespace, name, err)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("apply lock: still held by another run: %w", context.Cause(ctx))
		case <-time.After(poll):
		}
	}
}
