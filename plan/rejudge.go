package plan

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/kube"
)

// Rejudge judges a saved plan again, at apply time, against the cluster
// as it is now: the rules (o.Rules, those of the checkout applying it)
// over the plan's changes, with the live objects read again when a rule
// reads change.before and the set's members listed again for
// plan.members, and the change windows at this time. It replaces
// pl.Guards and pl.Window: what was judged when the plan was saved does
// not count. The object as it will be is the change's saved object
// (the manifest as applied); its changed paths are those saved.
func Rejudge(ctx context.Context, c *kube.Client, pl *Plan, as *applyset.Parent, o GuardOptions) error {
	pl.Window = nil
	if st := o.Windows.At(o.now()); !st.Open {
		pl.Window = &st
	}
	if o.Rules == nil {
		return nil // no rules to judge by: the saved verdicts stand
	}
	p := &planner{c: c, opts: Options{Adopt: true}}
	members := 0
	if as != nil {
		set, err := p.readParent(ctx, *as)
		if err != nil {
			return err
		}
		if set.parent.Exists {
			ms, err := ListMembers(ctx, c, *as, set.state)
			if err != nil {
				return err
			}
			members = len(ms)
		}
	}
	before := make([]map[string]any, len(pl.Changes))
	after := make([]map[string]any, len(pl.Changes))
	for i, ch := range pl.Changes {
		if ch.Action == Unchanged {
			continue
		}
		if ch.Action != Prune {
			after[i] = ch.Object
		}
		if ch.Action == Create || !o.Rules.NeedsObjects() {
			continue
		}
		live, err := readObject(ctx, c, ch.Ref)
		if err != nil {
			return err
		}
		if live != nil {
			before[i] = live.Object
		}
	}
	pl.Guards = nil
	return o.judge(pl, before, after, members)
}

// readObject reads the live object r names; nil when it is gone.
func readObject(ctx context.Context, c *kube.Client, r Ref) (*unstructured.Unstructured, error) {
	m, err := c.Mapper.RESTMapping(schema.GroupKind{Group: r.Group, Kind: r.Kind}, r.Version)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r, err)
	}
	ri := c.Dynamic.Resource(m.Resource)
	var obj *unstructured.Unstructured
	if r.Namespace != "" {
		obj, err = ri.Namespace(r.Namespace).Get(ctx, r.Name, metav1.GetOptions{})
	} else {
		obj, err = ri.Get(ctx, r.Name, metav1.GetOptions{})
	}
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s for the guard rules: %w", r, err)
	}
	return obj, nil
}
