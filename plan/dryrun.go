package plan

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/kubeplan/kubeplan/internal/kube"
	"golang.org/x/sync/errgroup"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
)

// dryRunAll server-side dry-runs every target, concurrently, and classifies
// it against its live version.
func (p *planner) dryRunAll(ctx context.Context, targets []*target, live map[*target]*unstructured.Unstructured) ([]Change, error) {
	changes := make([]Change, len(targets))
	errs := make([]*ObjectError, len(targets))
	var g errgroup.Group
	g.SetLimit(p.opts.Concurrency)
	var mu sync.Mutex
	done := 0
	for i := range targets {
		g.Go(func() error {
			t := targets[i]
			defer func() {
				if p.opts.Progress != nil {
					mu.Lock()
					done++
					p.opts.Progress(done, len(targets))
					mu.Unlock()
				}
			}()
			c, err := p.dryRun(ctx, t, live[t])
			if err != nil {
				errs[i] = &ObjectError{Ref: t.ref, Source: sourceOf(t.src), Err: hideKeptIn(err, t)}
				return nil
			}
			changes[i] = c
			return nil
		})
	}
	_ = g.Wait() // every call returns nil: errors are kept per index
	p.refusePodSecurity(ctx, targets, changes, errs)
	var all Errors
	for _, e := range errs {
		if e != nil {
			all = append(all, e)
		}
	}
	if len(all) > 0 {
		return nil, all
	}
	if err := p.checkReplacePermissions(ctx, targets, changes); err != nil {
		return nil, err
	}
	return changes, nil
}

// dryRun applies t with dryRun=All, unless the live object already holds
// exactly what t would apply (alreadyApplied): first without force, so fields another
// manager owns with a different value come back as conflicts (drift), then,
// only if there were conflicts, with force, to get the object as it will be.
func (p *planner) dryRun(ctx context.Context, t *target, live *unstructured.Unstructured) (c Change, err error) {
	c = Change{Ref: t.ref, Source: sourceOf(t.src), Object: t.obj.Object, Decrypted: t.src != nil && t.src.Encrypted, Kept: t.kept}
	if p.opts.SecretDataWithheld {
		c.Object = withheld(c.Object, t.kept) // what a saved plan holds
	}
	if live != nil {
		c.LiveResourceVersion, c.LiveGeneration = live.GetResourceVersion(), live.GetGeneration()
	}
	if t.pending {
		c.Action, c.AfterCRD, c.WaitsFor = Create, true, t.waitsFor
		c.Diff = diffKept(nil, t.obj.Object, c.Kept)
		return c, nil
	}
	if !proofsOff && alreadyApplied(t.obj.Object, live, p.opts.FieldManager) {
		c.Action = Unchanged // proven without a request: see alreadyApplied
		return c, nil
	}
	data, err := json.Marshal(t.obj.Object)
	if err != nil {
		return c, fmt.Errorf("encoding: %w", err)
	}
	ri := p.c.Dynamic.Resource(t.gvr).Namespace(t.obj.GetNamespace())
	wctx, warnings := kube.CaptureWarnings(ctx)
	defer func() { c.APIWarnings = maskWarnings(t.obj.Object, warnings.List()) }() // this object's own, whatever the outcome
	apply := func(force bool) (*unstructured.Unstructured, error) {
		return ri.Patch(wctx, t.obj.GetName(), types.ApplyPatchType, data, metav1.PatchOptions{
			FieldManager: p.opts.FieldManager, DryRun: []string{metav1.DryRunAll}, Force: &force,
		})
	}
	res, err := apply(false)
	if apierrors.IsConflict(err) {
		c.Drift = drift(err, live, t.obj)
		var lo map[string]any
		if live != nil {
			lo = live.Object
		}
		hideDrift(c.Drift, c.Kept, lo, t.obj.Object)
		res, err = apply(true)
	}
	if reason, ok := immutableReason(err); ok && live != nil {
		return replacement(c, live, t.obj, reason, p.opts.FieldManager)
	}
	if err != nil {
		return c, explain(err)
	}
	var liveObj map[string]any
	if live != nil {
		liveObj = live.Object
	}
	switch {
	case live == nil:
		c.Action = Create
	case Equal(liveObj, res.Object) && managedBy(live, p.opts.FieldManager):
		c.Action = Unchanged
	default:
		c.Action = Update
	}
	if c.Action != Unchanged {
		if g := p.opts.Guards.Rules; g != nil && g.NeedsObjects() {
			c.planned = res.Object
		}
		if g := p.opts.Guards.Rules; g != nil && g.NeedsPaths() && c.Action == Update {
			// Here, among the concurrent dry-runs, rather than once
			// the plan is made: the paths cost no wall time.
			c.Paths = ChangedPaths(liveObj, res.Object)
		}
		c.Diff = diffKept(liveObj, p.planned(t, live, res), c.Kept)
		if c.Diff == "" {
			c.Diff = "(no field changes: " + p.opts.FieldManager + " takes ownership of the fields from " + managers(live) + ")"
		}
	}
	return c, nil
}

// planned is the object a diff shows as planned: for a create, the manifest
// as written (with what the plan adds, such as the ApplySet label) unless
// ShowDefaults asks for the server's version with its defaults; otherwise
// the dry-run result.
func (p *planner) planned(t *target, live, res *unstructured.Unstructured) map[string]any {
	if live == nil && !p.opts.ShowDefaults {
		return t.obj.Object
	}
	return res.Object
}

// managedBy reports whether manager has applied the live object: only then
// is an object whose fields already match really unchanged. Otherwise (a set
// adopted from kubectl) applying it transfers the fields' ownership.
func managedBy(live *unstructured.Unstructured, manager string) bool {
	for _, m := range live.GetManagedFields() {
		if m.Manager == manager && m.Operation == metav1.ManagedFieldsOperationApply {
			return true
		}
	}
	return false
}

func managers(live *unstructured.Unstructured) string {
	var names []string
	for _, m := range live.GetManagedFields() {
		names = append(names, m.Manager)
	}
	if len(names) == 0 {
		return "no one"
	}
	return strings.Join(names, ", ")
}

// explain turns an API error into a sentence about the object, naming the
// fields the server refused (an immutable field, an invalid value).
func explain(err error) error {
	var se apierrors.APIStatus
	if !errors.As(err, &se) {
		return err
	}
	st := se.Status()
	if st.Details == nil || len(st.Details.Causes) == 0 {
		return fmt.Errorf("the server refused it: %s", st.Message)
	}
	var parts []string
	for _, cause := range st.Details.Causes {
		msg := cause.Message
		if cause.Field != "" {
			msg = cause.Field + ": " + msg
		}
		if strings.Contains(cause.Message, "immutable") {
			msg += " (an immutable field: delete and recreate the object to change it)"
		}
		parts = append(parts, msg)
	}
	return fmt.Errorf("the server refused it: %s", strings.Join(parts, "; "))
}
