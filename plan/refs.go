package plan

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"golang.org/x/sync/errgroup"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeplan/kubeplan/internal/podrefs"
)

// ErrDanglingRefs is returned with Options.StrictRefs when a pod template
// references what neither the set nor the cluster has.
type ErrDanglingRefs struct{ Warnings []Warning }

func (e *ErrDanglingRefs) Error() string {
	lines := make([]string, len(e.Warnings))
	for i, w := range e.Warnings {
		lines[i] = w.Message
		if s := w.Source.String(); s != "" {
			lines[i] = s + ": " + w.Message
		}
	}
	return fmt.Sprintf("%d dangling reference(s), refused with --strict-refs (a warning without it):\n  %s", len(lines), strings.Join(lines, "\n  "))
}

var refResources = map[string]schema.GroupVersionResource{
	podrefs.Secret:                {Version: "v1", Resource: "secrets"},
	podrefs.ConfigMap:             {Version: "v1", Resource: "configmaps"},
	podrefs.ServiceAccount:        {Version: "v1", Resource: "serviceaccounts"},
	podrefs.PersistentVolumeClaim: {Version: "v1", Resource: "persistentvolumeclaims"},
}

// danglingRefs finds the references of the set's pod templates that
// neither the set (after the plan's prunes) nor the cluster provides: the
// pods would not start (CreateContainerConfigError, a pending volume). One
// metadata-only GET per name the set does not provide; a reference the identity may not
// read is not reported (it cannot be known).
func (p *planner) danglingRefs(ctx context.Context, targets []*target, changes []Change) ([]Warning, error) {
	provided := map[podrefs.Key]bool{}
	for _, t := range targets {
		gvk := t.obj.GroupVersionKind()
		for _, k := range podrefs.Provides(gvk.Group, gvk.Kind, t.ref.Namespace, t.obj.Object) {
			provided[k] = true
		}
	}
	pruned := map[podrefs.Key]bool{}
	for _, c := range changes {
		if c.Action == Prune {
			pruned[podrefs.Key{Kind: c.Ref.Kind, Namespace: c.Ref.Namespace, Name: c.Ref.Name}] = true
		}
	}
	type use struct {
		t   *target
		ref podrefs.Ref
		key podrefs.Key
	}
	var uses []use
	need := map[podrefs.Key]bool{}
	for _, t := range targets {
		gvk := t.obj.GroupVersionKind()
		for _, r := range podrefs.Refs(gvk.Group, gvk.Kind, t.obj.Object) {
			k := podrefs.Key{Kind: r.Kind, Namespace: t.ref.Namespace, Name: r.Name}
			if provided[k] {
				continue
			}
			uses = append(uses, use{t, r, k})
			if !pruned[k] {
				need[k] = true
			}
		}
	}
	if len(uses) == 0 {
		return nil, nil
	}
	var mu sync.Mutex
	live := map[podrefs.Key]bool{}
	var g errgroup.Group
	g.SetLimit(8)
	for k := range need {
		g.Go(func() error {
			// Metadata only: a Secret's data never reaches kubeplan.
			_, err := p.c.Metadata.Resource(refResources[k.Kind]).Namespace(k.Namespace).Get(ctx, k.Name, metav1.GetOptions{})
			exists := err == nil || !apierrors.IsNotFound(err) // forbidden or failing: not known, not reported
			mu.Lock()
			live[k] = exists
			mu.Unlock()
			return nil
		})
	}
	_ = g.Wait()
	var out []Warning
	for _, u := range uses {
		if live[u.key] {
			continue
		}
		why := "not found"
		if pruned[u.key] {
			why = "pruned by this plan"
		}
		out = append(out, Warning{
			Ref:     u.t.ref,
			Source:  refSource(u.t, u.ref.Path),
			Message: fmt.Sprintf("pods of %s will not start: %s %q %s", u.t.ref, strings.ToLower(u.ref.Kind), u.ref.Name, why),
		})
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Source, out[j].Source
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Line < b.Line
	})
	if p.opts.StrictRefs && len(out) > 0 {
		return nil, &ErrDanglingRefs{Warnings: out}
	}
	return out, nil
}

// refSource is where the field at path is in the manifests.
func refSource(t *target, path []string) Source {
	if t.src == nil {
		return Source{}
	}
	pos := t.src.Pos(path...)
	return Source{File: t.src.FileOf(path...), Line: pos.Line, Col: pos.Col}
}
