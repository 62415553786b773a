package apply

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/kubeplan/kubeplan/health"
	"github.com/kubeplan/kubeplan/internal/helmhook"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/internal/stage"
	"github.com/kubeplan/kubeplan/plan"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Stages (plan.Plan.Stages, docs/ordering.md). An apply writes the stages
// of its plan one after the other:
//
//   - in a stage, Namespaces first, then CRDs (waited on until
//     Established), then the other objects, concurrently; then its hooks
//     (Argo CD's and Helm's), one at a time in Helm's kind order, each
//     waited for (runHooks);
//   - a stage starts once the stage before it is healthy: the health wait
//     of what it wrote returns on the watch event that makes the last
//     object healthy, with no fixed sleep. The last stage is waited for
//     only with Options.Wait, as a run without stages always was;
//   - prune runs after the last stage that is not a PostSync stage is
//     written (before its wait, as always), in the reverse of the stages
//     the pruned objects were in (the plan lists them in that order);
//   - when a stage (or the prune) fails, the run stops there: the SyncFail
//     stages run (their hooks created again when they exist) and the
//     error is a *StageError naming the stage.
//
// A plan without stages is one stage: the run is what it always was.

// stageRun is one stage of a run and its changes.
type stageRun struct {
	plan.Stage
	changes []plan.Change
}

// runStages gives the stages of p over keep (the changes that are not
// prunes) in run order, and its SyncFail stages.
func runStages(p *plan.Plan, keep []plan.Change) (run, onFail []stageRun, err error) {
	if len(p.Stages) == 0 {
		for _, ch := range keep {
			if ch.Action != plan.Unchanged && helmhook.Of(ch.Object).IsHook() {
				return nil, nil, fmt.Errorf("%s is a Helm hook, but the plan has no stages: it was saved by an older kubeplan; make the plan again", ch.Ref)
			}
		}
		return []stageRun{{Stage: plan.Stage{Phase: string(stage.Sync)}, changes: keep}}, nil, nil
	}
	byRef := make(map[plan.Ref]plan.Change, len(keep))
	for _, ch := range keep {
		byRef[ch.Ref] = ch
	}
	placed := map[plan.Ref]bool{}
	for _, s := range p.Stages {
		sr := stageRun{Stage: s}
		for _, ref := range s.Members {
			if ch, ok := byRef[ref]; ok {
				sr.changes = append(sr.changes, ch)
				placed[ref] = true
			}
		}
		if s.OnFail {
			onFail = append(onFail, sr)
		} else {
			run = append(run, sr)
		}
	}
	for _, ch := range keep {
		if !placed[ch.Ref] && ch.Action != plan.Unchanged {
			return nil, nil, fmt.Errorf("%s is to be written but in no stage of the plan: make the plan again", ch.Ref)
		}
	}
	return run, onFail, nil
}

// pruneAfter is the index of the stage after which prune runs: the last
// that is not a PostSync stage (-1: before the first).
func pruneAfter(run []stageRun) int {
	at := -1
	for i, s := range run {
		if s.Phase != string(stage.PostSync) {
			at = i
		}
	}
	return at
}

// runner carries one run through its stages.
type runner struct {
	waitCtx, ctx context.Context // the health waits; the writes
	c            *kube.Client
	opts         Options
	set          []plan.Change // every object of the run (masks, waits)
	ran          map[string]string
	writing      *phaseCounter
	res          *Result
	reported     map[plan.Ref]bool
	// fresh is true while the REST mapper knows every kind served: it was
	// reset for this run and no CRD was written since. A custom resource
	// whose CRD this run or a project before it created (AfterCRD) needs it.
	fresh bool
	// succeeded are the hooks with hook-succeeded (HookSucceeded) of the
	// phase running that succeeded: deleted when the phase ends.
	succeeded []plan.Ref
	// pruned is true once prune ran: a later failure no longer says that
	// nothing will be pruned.
	pruned bool
}

// failed is how a write's failure begins.
func (r *runner) failed() string {
	if r.pruned {
		return "apply failed"
	}
	return "apply failed, nothing will be pruned"
}

// stagesOf runs the stages of p (keep its changes to write, prune its
// prunes and releases) and returns the first error, a *StageError when p
// has stages.
func (r *runner) stagesOf(p *plan.Plan, keep, prune []plan.Change) error {
	run, onFail, err := runStages(p, keep)
	if err != nil {
		return err
	}
	staged := len(p.Stages) > 0
	total := 0
	for _, s := range run {
		total += countWrites(s.changes)
	}
	r.writing = startPhase(r.opts.progress(), PhaseWriting, total)
	at := pruneAfter(run)
	fail := func(name string, err error) error {
		r.writing.finish()
		if !staged {
			return err
		}
		return &StageError{Stage: name, OnFail: r.syncFail(onFail), Err: err}
	}
	if at < 0 {
		if err := r.prune(p, prune); err != nil {
			return fail("prune", err)
		}
	}
	for i, s := range run {
		if i > 0 && run[i-1].Phase != s.Phase {
			deleteHooks(r.ctx, r.c, &r.succeeded) // the phase before ended
		}
		written, err := r.write(s)
		if err != nil {
			return fail(s.Name, err)
		}
		if i == at {
			if err := r.prune(p, prune); err != nil {
				return fail("prune", err)
			}
		}
		if i < len(run)-1 || r.opts.Wait {
			if err := r.wait(written, i < len(run)-1); err != nil {
				return fail(s.Name, err)
			}
		}
	}
	r.writing.finish()
	deleteHooks(r.ctx, r.c, &r.succeeded)
	for _, ch := range keep {
		if !r.reported[ch.Ref] {
			r.report(ObjectResult{Ref: ch.Ref, Outcome: Unchanged})
		}
	}
	return nil
}

func (r *runner) report(o ObjectResult) {
	r.res.Objects = append(r.res.Objects, o)
	r.reported[o.Ref] = true
}

// kindStep orders writes inside a stage: Namespaces first, then CRDs
// (waited on until Established), then everything else.
func kindStep(ch plan.Change) int {
	switch {
	case ch.Ref.Kind == "Namespace" && ch.Ref.Group == "":
		return 0
	case ch.Ref.Kind == "CustomResourceDefinition" && ch.Ref.Group == "apiextensions.k8s.io":
		return 1
	}
	return 2
}

// write server-side applies the changed objects of s, step by step,
// concurrently within a step, then runs its hooks one by one. It returns
// the objects written that are not hooks (a hook was waited for already).
func (r *runner) write(s stageRun) ([]plan.Ref, error) {
	var hooks, objs []plan.Change
	for _, ch := range s.changes {
		switch {
		case ch.Action == plan.Unchanged:
			if !r.reported[ch.Ref] {
				r.report(ObjectResult{Ref: ch.Ref, Outcome: Unchanged})
			}
		case ch.Hook != "":
			hooks = append(hooks, ch)
		default:
			objs = append(objs, ch)
		}
	}
	var written []plan.Ref
	for st := 0; st <= 2; st++ {
		var batch []plan.Change
		for _, ch := range objs {
			if kindStep(ch) == st {
				batch = append(batch, ch)
			}
		}
		if st == 2 && !r.fresh && (hasAfterCRD(batch) || hasAfterCRD(hooks)) {
			r.c.Mapper.Reset() // CRDs were established since the mapper learnt the kinds
			r.fresh = true
		}
		done, errs := eachChange(batch, r.opts.Concurrency, func(ch plan.Change) (ObjectResult, error) {
			res, err := applyOne(r.ctx, r.c, ch, r.opts)
			r.writing.step()
			return res, err
		})
		for _, o := range done {
			r.report(o)
			written = append(written, o.Ref)
		}
		if err := joinFailures(r.failed(), batch, errs); err != nil {
			return written, err
		}
		if st == 1 && len(batch) > 0 {
			if err := waitEstablished(r.ctx, r.c, batch); err != nil {
				return written, err
			}
			r.fresh = false
		}
	}
	if len(hooks) > 0 {
		sortHooks(hooks)
		ran, err := runHooks(r.waitCtx, r.ctx, r.c, hooks, r.set, r.opts, r.ran, &r.succeeded)
		for _, o := range ran {
			r.report(o)
			r.writing.step()
		}
		if err != nil {
			return written, fmt.Errorf("%s: %w", r.failed(), err)
		}
	}
	return written, nil
}

// wait waits until the objects of refs are healthy. Between stages
// (between is true) it waits even without Options.Wait, up to
// Options.Timeout or, without one, defaultHookTimeout.
func (r *runner) wait(refs []plan.Ref, between bool) error {
	if len(refs) == 0 {
		return nil
	}
	wopts := waitOptions(r.set, r.opts)
	if between && wopts.Timeout <= 0 {
		wopts.Timeout = defaultHookTimeout
	}
	results, err := health.Wait(r.waitCtx, r.c, refs, wopts)
	if err == nil {
		err = fenceCheck(r.ctx) // the lock was lost while waiting
	}
	withSources(results, err, r.set)
	r.res.Health = append(r.res.Health, results...)
	return err
}

// prune deletes the members that left the set and releases the protected
// ones, stage by stage in the order the plan lists them (the reverse of
// the stages they were in).
func (r *runner) prune(p *plan.Plan, prune []plan.Change) error {
	setID := ""
	if p.Parent != nil {
		setID = p.Parent.ID
	}
	r.pruned = true
	pruning := startPhase(r.opts.progress(), PhasePruning, len(prune))
	defer pruning.finish()
	for len(prune) > 0 {
		n := 1
		for n < len(prune) && prune[n].Stage == prune[0].Stage {
			n++
		}
		pruned, err := pruneAll(r.ctx, r.c, prune[:n], setID, r.opts)
		for _, o := range pruned {
			r.report(o)
		}
		if err != nil {
			return err
		}
		prune = prune[n:]
	}
	return nil
}

// syncFail runs the SyncFail stages after a stage failed, their hooks
// created again (deleted first when they exist and ask for it, as
// BeforeHookCreation, the default, does). It returns their first error.
// A run that was interrupted (Ctrl-C) or ran out of time runs none: it
// says so in the error.
func (r *runner) syncFail(onFail []stageRun) error {
	if len(onFail) == 0 {
		return nil
	}
	if err := r.waitCtx.Err(); err != nil {
		return fmt.Errorf("SyncFail hooks not run: %w", context.Cause(r.waitCtx))
	}
	var succeeded []plan.Ref
	defer deleteHooks(r.ctx, r.c, &succeeded)
	for _, s := range onFail {
		var hooks []plan.Change
		for _, ch := range s.changes {
			ch.Action, ch.LiveResourceVersion = plan.Create, ""
			if hookPlacement(ch).Deletes(stage.DeleteBefore) && r.exists(ch.Ref) {
				ch.Action, ch.Reason = plan.Replace, "SyncFail hook: created again"
			}
			hooks = append(hooks, ch)
		}
		sortHooks(hooks)
		ran, err := runHooks(r.waitCtx, r.ctx, r.c, hooks, r.set, r.opts, r.ran, &succeeded)
		for _, o := range ran {
			r.report(o)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", s.Name, err)
		}
	}
	return nil
}

// exists reports whether ref's object is in the cluster; an error reading
// it counts as there (a replace then reports the error).
func (r *runner) exists(ref plan.Ref) bool {
	gvr, err := resourceFor(r.c, ref)
	if err != nil {
		return true
	}
	_, err = r.c.Dynamic.Resource(gvr).Namespace(ref.Namespace).Get(r.ctx, ref.Name, metav1.GetOptions{})
	return !apierrors.IsNotFound(err)
}

// hookPlacement is what ch's ordering annotations say of it.
func hookPlacement(ch plan.Change) stage.Placement {
	p, _ := stage.Read(stage.FromContent(ch.Ref.String(), "", ch.Object, nil))
	return p
}

// sortHooks orders the hooks of one stage as Helm installs a release's
// objects: by kind (hookKindOrder), then by name.
func sortHooks(hooks []plan.Change) {
	slices.SortStableFunc(hooks, func(a, b plan.Change) int {
		return cmp.Or(cmp.Compare(hookKindRank(a.Ref.Kind), hookKindRank(b.Ref.Kind)),
			cmp.Compare(a.Ref.Kind, b.Ref.Kind), cmp.Compare(a.Ref.Name, b.Ref.Name))
	})
}
