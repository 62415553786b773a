package apply

import (
	"github.com/kubeplan/kubeplan/internal/guard"

	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubeplan/kubeplan/health"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/plan"
)

// ObjectResult is one line of apply's output.
type ObjectResult struct {
	Ref     plan.Ref `json:"ref"`
	Outcome Outcome  `json:"outcome"`
	// Detail says why an object was Skipped: "now belongs to ApplySet ...".
	Detail string `json:"detail,omitempty"`
}

// Result is what an apply did.
type Result struct {
	Objects []ObjectResult `json:"objects"`
	// Health is the state of the written objects after the wait.
	Health []health.Result `json:"health,omitempty"`
	// InSync is true when the run found nothing to write (Reconcile).
	InSync bool `json:"inSync"`
	// Approvals are the approvals and window override this run used
	// (also recorded on the parent).
	Approvals []ApprovalRecord `json:"approvals,omitempty"`
	// Pending are the require-approval verdicts no approval covered, when
	// the run went on without what they are about (Options.Withhold:
	// serve): those objects are Withheld.
	Pending []guard.Verdict `json:"pendingApprovals,omitempty"`
}

// Wrote reports whether the run created, configured, replaced or pruned
// an object.
func (r *Result) Wrote() bool {
	if r == nil {
		return false
	}
	for _, o := range r.Objects {
		if o.Outcome != Unchanged && o.Outcome != Skipped && o.Outcome != Withheld {
			return true
		}
	}
	return false
}

// ErrEmptySet refuses to prune everything because the manifests came out
// empty.
var ErrEmptySet = errors.New("the manifest set is empty: nothing was written (applying it would prune every member of the ApplySet; if that is what you want, apply it once from the command line with --allow-empty: kubeplan serve never applies an empty set)")

// Execute applies plan p, stage by stage (see stages.go). Nothing is
// pruned unless every apply succeeded. Hooks (Helm's, Argo CD's) are the
// members of their stages, each waited for (see hooks.go).
// A plan that replaces an object (deletes and recreates it) is refused
// before any write unless Options.Replace or the object's annotation
// kubeplan.dev/replace: allow allows it (ErrReplaceNotAllowed), and so is
// one that takes over objects another owner manages, unless Options.Adopt
// (ErrOwnedElsewhere).
//
// Cancelling ctx (Ctrl-C) never cuts the writes short: a half-written set
// is worse than a late exit, so the applies, the prunes and the record on
// the parent always run to the end. It stops the health wait, and the run
// is recorded as failed ("interrupted"). Options.Deadline, in contrast,
// bounds everything: writes, prune and wait. Reconcile also fences the
// writes with the lock: once it is lost, nothing more is written.
func Execute(ctx context.Context, c *kube.Client, p *plan.Plan, opts Options) (*Result, error) {
	return execute(ctx, context.WithoutCancel(ctx), c, p, opts)
}

// execute is Execute with the contexts apart: waitCtx stops the health
// wait, writeCtx carries every write.
func execute(waitCtx, ctx context.Context, c *kube.Client, p *plan.Plan, opts Options) (*Result, error) {
	if !opts.Deadline.IsZero() {
		var cancelWait, cancelWrite context.CancelFunc
		waitCtx, cancelWait = context.WithDeadline(waitCtx, opts.Deadline)
		defer cancelWait()
		ctx, cancelWrite = context.WithDeadline(ctx, opts.Deadline)
		defer cancelWrite()
	}
	if opts.FieldManager == "" {
		opts.FieldManager = p.FieldManager
	}
	if opts.Concurrency <= 0 {
		opts.Concurrency = 16
	}
	// A saved plan made without the Secrets' data holds its looked-up
	// fields hidden: their live values are read again now.
	if err := plan.FillWithheld(ctx, c, p); err != nil {
		return nil, err
	}
	if opts.guards == nil {
		gd, err := CheckGuards(p, opts)
		if err != nil {
			return nil, err
		}
		opts.guards = &gd
	}
	var keep, prune, held []plan.Change
	for _, ch := range p.Changes {
		if ch.Action == plan.Prune && opts.guards.Withheld[ch.Ref] {
			held = append(held, ch) // stays a member until a run is approved
			continue
		}
		if ch.Action == plan.Prune || ch.Action == plan.Release {
			prune = append(prune, ch) // both only after every apply succeeded
		} else {
			keep = append(keep, ch)
		}
	}
	if len(keep) == 0 && !opts.AllowEmpty {
		return nil, ErrEmptySet
	}
	if err := CheckReplaces(keep, opts.Replace); err != nil {
		return nil, err
	}
	if err := CheckOwners(p, opts.Adopt); err != nil {
		return nil, err
	}
	res := &Result{Approvals: opts.guards.Used}
	if len(held) > 0 {
		res.Pending = opts.guards.Pending
	}
	for _, ch := range held {
		res.Objects = append(res.Objects, ObjectResult{Ref: ch.Ref, Outcome: Withheld})
	}
	ps := &parentWriter{c: c, p: p, opts: opts, hooksRan: map[string]string{}, held: held, guards: opts.guards}
	if err := ps.writeUnion(ctx, keep); err != nil {
		return nil, err
	}
	r := &runner{waitCtx: waitCtx, ctx: ctx, c: c, opts: opts, set: keep, ran: ps.hooksRan, res: res, reported: map[plan.Ref]bool{}}
	err := r.stagesOf(p, keep, prune)
	if err != nil {
		res.Health = append(res.Health, hookHealth(err)...)
	}
	return res, errors.Join(err, ps.recordResult(ctx, err, keep, res.Wrote()))
}

func hasAfterCRD(cs []plan.Change) bool {
	for _, c := range cs {
		if c.AfterCRD {
			return true
		}
	}
	return false
}

// applyOne server-side applies one object with force: the plan already
// showed what it takes back from other managers. A replace deletes the
// object first (see replaceOne).
func applyOne(ctx context.Context, c *kube.Client, ch plan.Change, opts Options) (ObjectResult, error) {
	if err := fenceCheck(ctx); err != nil {
		return ObjectResult{}, fmt.Errorf("%s: %w", ch.Ref, err)
	}
	if ch.Action == plan.Replace {
		return replaceOne(ctx, c, ch, opts)
	}
	gvr, err := resourceFor(c, ch.Ref)
	if err != nil {
		return ObjectResult{}, fmt.Errorf("%s: %w", ch.Ref, err)
	}
	if err := serverSideApply(ctx, c, gvr, ch, opts); err != nil {
		return ObjectResult{}, err
	}
	outcome := Configured
	if ch.Action == plan.Create {
		outcome = Created
	}
	return ObjectResult{Ref: ch.Ref, Outcome: outcome}, nil
}

// serverSideApply writes ch.Object with force; errors name the object and
// its file.
func serverSideApply(ctx context.Context, c *kube.Client, gvr schema.GroupVersionResource, ch plan.Change, opts Options) error {
	data, err := json.Marshal(ch.Object)
	if err != nil {
		return fmt.Errorf("%s: encoding: %w", ch.Ref, err)
	}
	force := true
	_, err = c.Dynamic.Resource(gvr).Namespace(ch.Ref.Namespace).Patch(ctx, ch.Ref.Name, types.ApplyPatchType, data,
		metav1.PatchOptions{FieldManager: opts.FieldManager, Force: &force})
	if err != nil {
		where := ch.Source.String()
		if where != "" {
			where += ": "
		}
		return fmt.Errorf("%s%s: %w", where, ch.Ref, err)
	}
	return nil
}

var resourceCache sync.Map

// resourceFor maps a Ref to its REST resource.
func resourceFor(c *kube.Client, r plan.Ref) (schema.GroupVersionResource, error) {
	if r.Resource != "" {
		return schema.GroupVersionResource{Group: r.Group, Version: r.Version, Resource: r.Resource}, nil
	}
	m, err := c.Mapper.RESTMapping(schema.GroupKind{Group: r.Group, Kind: r.Kind}, r.Version)
	if err != nil {
		return schema.GroupVersionResource{}, fmt.Errorf("looking up %s: %w", r.Kind, err)
	}
	return m.Resource, nil
}

// waitEstablished waits until the CRDs just applied are Established.
func waitEstablished(ctx context.Context, c *kube.Client, crds []plan.Change) error {
	gvr := schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
	for _, ch := range crds {
		for {
			o, err := c.Dynamic.Resource(gvr).Get(ctx, ch.Ref.Name, metav1.GetOptions{})
			if err != nil {
				return fmt.Errorf("%s: %w", ch.Ref, err)
			}
			if conditionTrue(o, "Established") {
				break
			}
			select {
			case <-ctx.Done():
				return fmt.Errorf("%s: waiting to be Established: %w", ch.Ref, ctx.Err())
			case <-after(200):
			}
		}
	}
	return nil
}

func conditionTrue(o *unstructured.Unstructured, typ string) bool {
	conds, _, _ := unstructured.NestedSlice(o.Object, "status", "conditions")
	for _, c := range conds {
		m, _ := c.(map[string]any)
		if m["type"] == typ && m["status"] == "True" {
			return true
		}
	}
	return false
}
