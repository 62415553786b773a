package apply

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/kube"
)

// renewSlack is how late a renewal may be before its holder is taken for
// dead: a live holder renews every third of the Lease's duration.
const renewSlack = 5 * time.Second

// Unlocked says what Unlock broke.
type Unlocked struct {
	Holder  string
	Renewed time.Time // the holder's last renewal
}

// Unlock breaks the apply lock of as, like terraform force-unlock, for a
// holder that crashed: it refuses while the holder still renews the Lease
// (a live apply), and deletes the Lease on the condition that it is the
// version it read. No lock is nothing to do.
func Unlock(ctx context.Context, c *kube.Client, as applyset.Parent) (*Unlocked, error) {
	leases := c.Dynamic.Resource(lockLeaseGVR).Namespace(as.Namespace)
	lease, err := leases.Get(ctx, LockName(as), metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the apply lock %s/%s: %w", as.Namespace, LockName(as), err)
	}
	holder, renewed, period := leaseRenewal(lease)
	if since := time.Since(renewed); since < period+renewSlack {
		return nil, fmt.Errorf("the apply lock of %s is held by %s, which renewed it %s ago: that apply is alive (it renews every %s); not broken",
			as, holder, since.Round(time.Second), period)
	}
	rv := lease.GetResourceVersion()
	err = leases.Delete(ctx, lease.GetName(), metav1.DeleteOptions{Preconditions: &metav1.Preconditions{ResourceVersion: &rv}})
	switch {
	case apierrors.IsConflict(err):
		return nil, fmt.Errorf("the apply lock of %s changed while breaking it (its holder renewed it, or another apply took it); not broken", as)
	case err != nil && !apierrors.IsNotFound(err):
		return nil, fmt.Errorf("breaking the apply lock of %s: %w", as, err)
	}
	return &Unlocked{Holder: holder, Renewed: renewed}, nil
}

// leaseRenewal reads a Lease's holder, last renewal and renewal period.
func leaseRenewal(lease *unstructured.Unstructured) (holder string, renewed time.Time, period time.Duration) {
	holder, expires := lockLeaseState(lease)
	secs, _, _ := unstructured.NestedInt64(lease.Object, "spec", "leaseDurationSeconds")
	d := time.Duration(secs) * time.Second
	return holder, expires.Add(-d), d / 3
}
