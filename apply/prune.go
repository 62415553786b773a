package apply

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"

	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/internal/ownership"
	"github.com/kubeplan/kubeplan/plan"
)

// pruneAll deletes the members that left the set (plan.Prune) and releases
// the protected ones (plan.Release), in reverse stage order (everything
// else, then CRDs, then Namespaces). Each object is read again first: one
// that no longer carries the label of the set setID (relabelled into
// another set since the plan) is left alone and reported Skipped; one
// recreated since the plan (another uid) is not touched and fails the run.
// Each write is guarded by the uid and the resourceVersion the plan saw.
func pruneAll(ctx context.Context, c *kube.Client, prunes []plan.Change, setID string, opts Options) ([]ObjectResult, error) {
	var out []ObjectResult
	for st := 2; st >= 0; st-- {
		var batch []plan.Change
		for _, ch := range prunes {
			if kindStep(ch) == st {
				batch = append(batch, ch)
			}
		}
		done, errs := eachChange(batch, opts.Concurrency, func(ch plan.Change) (ObjectResult, error) {
			return pruneOne(ctx, c, ch, setID, opts)
		})
		out = append(out, done...)
		if err := joinFailures("prune failed", batch, errs); err != nil {
			return out, err
		}
	}
	return out, nil
}

// pruneOne deletes (or, for a Release, unlabels) ch's object once it has
// checked that it is still the object the plan saw and still in the set.
// A write refused by its preconditions is checked again: an object that
// left the set meanwhile is skipped, any other change fails.
func pruneOne(ctx context.Context, c *kube.Client, ch plan.Change, setID string, opts Options) (ObjectResult, error) {
	if err := fenceCheck(ctx); err != nil {
		return ObjectResult{}, fmt.Errorf("%s: %w", ch.Ref, err)
	}
	gvr, err := resourceFor(c, ch.Ref)
	if err != nil {
		return ObjectResult{}, fmt.Errorf("%s: %w", ch.Ref, err)
	}
	ri := c.Dynamic.Resource(gvr).Namespace(ch.Ref.Namespace)
	done := ObjectResult{Ref: ch.Ref, Outcome: Pruned}
	if ch.Action == plan.Release {
		done.Outcome = Released
	}
	for attempt := 0; ; attempt++ {
		live, err := ri.Get(ctx, ch.Ref.Name, metav1.GetOptions{})
		switch {
		case apierrors.IsNotFound(err) && ch.Action == plan.Release:
			return ObjectResult{Ref: ch.Ref, Outcome: Skipped, Detail: "deleted meanwhile"}, nil
		case apierrors.IsNotFound(err):
			return done, nil // gone already: nothing left to prune
		case err != nil:
			return ObjectResult{}, fmt.Errorf("%s: reading it before pruning: %w", ch.Ref, err)
		}
		if skip, ok := leftTheSet(ch, live, setID); ok {
			return skip, nil
		}
		if ch.LiveUID != "" && string(live.GetUID()) != ch.LiveUID {
			return ObjectResult{}, fmt.Errorf("%s was deleted and created again since the plan was made (uid %s, the plan saw %s); not %s (plan again)",
				ch.Ref, live.GetUID(), ch.LiveUID, verb(ch))
		}
		if ch.Action == plan.Release {
			err = release(ctx, ri, ch, live, opts)
		} else {
			err = remove(ctx, ri, ch, live)
		}
		switch {
		case err == nil, apierrors.IsNotFound(err):
			return done, nil
		case apierrors.IsConflict(err) && attempt == 0:
			continue // read it again: it may have left the set meanwhile
		case apierrors.IsConflict(err):
			return ObjectResult{}, fmt.Errorf("%s changed since the plan was made; not %s (plan again)", ch.Ref, verb(ch))
		}
		return ObjectResult{}, fmt.Errorf("%s: %w", ch.Ref, err)
	}
}

// leftTheSet reports the Skipped result when live no longer carries the
// set's label.
func leftTheSet(ch plan.Change, live *unstructured.Unstructured, setID string) (ObjectResult, bool) {
	if setID == "" || live.GetLabels()[applyset.LabelPartOf] == setID {
		return ObjectResult{}, false
	}
	detail := "no longer in this ApplySet"
	if owner := ownership.Foreign(live, setID); owner != "" {
		detail = "now belongs to " + owner
	}
	return ObjectResult{Ref: ch.Ref, Outcome: Skipped, Detail: detail}, true
}

// remove deletes the object, only if it still has the uid and the
// resourceVersion the plan saw (the uid read now when the plan has none).
func remove(ctx context.Context, ri dynamic.ResourceInterface, ch plan.Change, live *unstructured.Unstructured) error {
	bg := metav1.DeletePropagationBackground
	uid := live.GetUID()
	pre := &metav1.Preconditions{UID: &uid}
	if ch.LiveResourceVersion != "" {
		rv := ch.LiveResourceVersion
		pre.ResourceVersion = &rv
	}
	return ri.Delete(ctx, ch.Ref.Name, metav1.DeleteOptions{PropagationPolicy: &bg, Preconditions: pre})
}

// release removes the ApplySet label and nothing else, with a JSON merge
// patch guarded by the object's uid and resourceVersion (a server-side
// apply of the label alone would drop every other field kubeplan owns).
func release(ctx context.Context, ri dynamic.ResourceInterface, ch plan.Change, live *unstructured.Unstructured, opts Options) error {
	rv := ch.LiveResourceVersion
	if rv == "" {
		rv = live.GetResourceVersion()
	}
	patch, err := json.Marshal(map[string]any{"metadata": map[string]any{
		"uid": live.GetUID(), "resourceVersion": rv,
		"labels": map[string]any{applyset.LabelPartOf: nil},
	}})
	if err != nil {
		return err
	}
	_, err = ri.Patch(ctx, ch.Ref.Name, types.MergePatchType, patch, metav1.PatchOptions{FieldManager: opts.FieldManager})
	return err
}

func verb(ch plan.Change) string {
	if ch.Action == plan.Release {
		return "released"
	}
	return "pruned"
}

func after(ms int) <-chan time.Time { return time.After(time.Duration(ms) * time.Millisecond) }
