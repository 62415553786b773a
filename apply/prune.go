package apply

import (
	"context"
	"errors"
	"fmt"
	"time"

	"golang.org/x/sync/errgroup"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/plan"
)

// pruneAll deletes the members that left the set, in reverse stage order
// (everything else, then CRDs, then Namespaces). Each delete is guarded by
// the resourceVersion the plan saw, so an object changed since is not
// deleted blindly.
func pruneAll(ctx context.Context, c *kube.Client, prunes []plan.Change, opts Options) ([]ObjectResult, error) {
	var out []ObjectResult
	for st := 2; st >= 0; st-- {
		var batch []plan.Change
		for _, ch := range prunes {
			if stage(ch) == st {
				batch = append(batch, ch)
			}
		}
		errs := make([]error, len(batch))
		var g errgroup.Group
		g.SetLimit(opts.Concurrency)
		for i := range batch {
			g.Go(func() error {
				errs[i] = pruneOne(ctx, c, batch[i])
				return nil
			})
		}
		_ = g.Wait() // every call returns nil: errors are kept per index
		var failed []error
		for i, ch := range batch {
			if errs[i] != nil {
				failed = append(failed, errs[i])
				continue
			}
			out = append(out, ObjectResult{Ref: ch.Ref, Outcome: Pruned})
		}
		if len(failed) > 0 {
			return out, fmt.Errorf("prune failed: %w", errors.Join(failed...))
		}
	}
	return out, nil
}

func pruneOne(ctx context.Context, c *kube.Client, ch plan.Change) error {
	if err := fenceCheck(ctx); err != nil {
		return fmt.Errorf("%s: %w", ch.Ref, err)
	}
	gvr, err := resourceFor(c, ch.Ref)
	if err != nil {
		return fmt.Errorf("%s: %w", ch.Ref, err)
	}
	bg := metav1.DeletePropagationBackground
	del := metav1.DeleteOptions{PropagationPolicy: &bg}
	if ch.LiveResourceVersion != "" {
		rv := ch.LiveResourceVersion
		del.Preconditions = &metav1.Preconditions{ResourceVersion: &rv}
	}
	err = c.Dynamic.Resource(gvr).Namespace(ch.Ref.Namespace).Delete(ctx, ch.Ref.Name, del)
	switch {
	case err == nil, apierrors.IsNotFound(err):
		return nil
	case apierrors.IsConflict(err):
		return fmt.Errorf("%s changed since the plan was made; not pruned (plan again)", ch.Ref)
	}
	return fmt.Errorf("%s: %w", ch.Ref, err)
}

func after(ms int) <-chan time.Time { return time.After(time.Duration(ms) * time.Millisecond) }
