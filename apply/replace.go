package apply

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/internal/ownership"
	"github.com/kubeplan/kubeplan/internal/stage"
	"github.com/kubeplan/kubeplan/plan"
)

// ErrReplaceNotAllowed is why Execute refuses a plan that replaces objects
// nobody allowed to be replaced; nothing is written then.
var ErrReplaceNotAllowed = errors.New("replacing an object deletes it and creates it again, which kubeplan does only when asked")

// defaultReplaceTimeout bounds the wait for a deleted object to be gone
// when Options.Timeout is not set.
const defaultReplaceTimeout = 2 * time.Minute

// CheckReplaces refuses, before any write (and before apply asks), the replacements that neither
// Options.Replace lists nor the manifest allows with the annotation
// kubeplan.dev/replace: allow.
func CheckReplaces(changes []plan.Change, allowed []string) error {
	for _, a := range allowed {
		if k, n, ok := strings.Cut(a, "/"); !ok || k == "" || n == "" {
			return fmt.Errorf("--replace %q: want KIND/NAME, e.g. deployment/web or deployment.apps/web", a)
		}
	}
	var refused, flags []string
	for _, ch := range changes {
		if ch.Action != plan.Replace || replaceAllowed(ch, allowed) {
			continue
		}
		refused = append(refused, fmt.Sprintf("%s (%s)", ch.Ref, ch.Reason))
		flags = append(flags, "--replace "+ch.Ref.String())
	}
	if len(refused) == 0 {
		return nil
	}
	return fmt.Errorf("%w; nothing was written. Refused: %s. Allow it with %s, or with the annotation %s: allow on the object in the manifests",
		ErrReplaceNotAllowed, strings.Join(refused, ", "), strings.Join(flags, " "), ownership.ReplaceAnnotation)
}

// replaceAllowed reports whether ch may be replaced: listed in allowed as
// KIND/NAME or KIND.GROUP/NAME (kind or plural resource, in any case),
// annotated in the manifest, or a hook whose delete policy is
// before-hook-creation (BeforeHookCreation: the default of Helm and Argo
// CD).
func replaceAllowed(ch plan.Change, allowed []string) bool {
	if hookPlacement(ch).Deletes(stage.DeleteBefore) {
		return true // a hook that asks to be deleted before it is created again
	}
	if md, ok := ch.Object["metadata"].(map[string]any); ok {
		if ann, ok := md["annotations"].(map[string]any); ok && ann[ownership.ReplaceAnnotation] == "allow" {
			return true
		}
	}
	var names []string // what KIND may be: deployment, deployment.apps, deployments, deployments.apps
	for _, n := range []string{ch.Ref.Kind, ch.Ref.Resource} {
		if n = strings.ToLower(n); n != "" {
			names = append(names, n)
			if ch.Ref.Group != "" {
				names = append(names, n+"."+strings.ToLower(ch.Ref.Group))
			}
		}
	}
	for _, a := range allowed {
		k, name, _ := strings.Cut(a, "/")
		if name == ch.Ref.Name && slices.Contains(names, strings.ToLower(k)) {
			return true
		}
	}
	return false
}

// replaceOne deletes the live object with foreground propagation (its
// dependents, a Deployment's ReplicaSets and Pods, go first), guarded by
// the resourceVersion the plan saw, waits until it is gone, and creates it
// again with server-side apply.
func replaceOne(ctx context.Context, c *kube.Client, ch plan.Change, opts Options) (ObjectResult, error) {
	gvr, err := resourceFor(c, ch.Ref)
	if err != nil {
		return ObjectResult{}, fmt.Errorf("%s: %w", ch.Ref, err)
	}
	ri := c.Dynamic.Resource(gvr).Namespace(ch.Ref.Namespace)
	fg := metav1.DeletePropagationForeground
	del := metav1.DeleteOptions{PropagationPolicy: &fg}
	if ch.LiveResourceVersion != "" {
		rv := ch.LiveResourceVersion // delete only the version the plan diffed against
		del.Preconditions = &metav1.Preconditions{ResourceVersion: &rv}
	}
	err = ri.Delete(ctx, ch.Ref.Name, del)
	switch {
	case apierrors.IsConflict(err):
		return ObjectResult{}, fmt.Errorf("%s changed since the plan was made; not replaced (plan again)", ch.Ref)
	case err != nil && !apierrors.IsNotFound(err):
		return ObjectResult{}, fmt.Errorf("%s: replacing (%s): deleting: %w", ch.Ref, ch.Reason, err)
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = defaultReplaceTimeout
	}
	wctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	for {
		_, err := ri.Get(wctx, ch.Ref.Name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			break
		}
		if err != nil && wctx.Err() == nil {
			return ObjectResult{}, fmt.Errorf("%s: replacing: waiting for the deletion: %w", ch.Ref, err)
		}
		select {
		case <-wctx.Done():
			return ObjectResult{}, fmt.Errorf("%s: replacing: deleted, but still there after %s (finalizers or dependents?); it is not created again: %w", ch.Ref, timeout, wctx.Err())
		case <-after(200):
		}
	}
	if err := fenceCheck(ctx); err != nil {
		return ObjectResult{}, fmt.Errorf("%s: replacing: deleted, not created again: %w", ch.Ref, err)
	}
	if err := serverSideApply(ctx, c, gvr, ch, opts); err != nil {
		return ObjectResult{}, fmt.Errorf("%s: replacing: deleted, but creating it again failed: %w", ch.Ref, err)
	}
	return ObjectResult{Ref: ch.Ref, Outcome: Replaced}, nil
}
