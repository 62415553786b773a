package apply

import (
	"context"
	"errors"

	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/plan"
)

// LockName is the Lease that serializes applies of one ApplySet.
func LockName(as applyset.Parent) string { return "kubeplan-lock-" + as.Name }

// Reconcile makes the cluster match plan p, the one entry point of apply:
//
//   - when p changes nothing and the parent already records this revision
//     as ok, it writes nothing (at most the checked-at time, see
//     recordChecked) and reports every object unchanged;
//   - otherwise it takes the ApplySet's lock, refuses a plan the cluster
//     moved away from since it was made (plan.CheckFresh), and executes it
//     (Execute: parent, ordered writes, prune, health wait, record).
//
// It returns what happened as data and prints nothing; the health wait's
// progress goes to opts.Progress.
func Reconcile(ctx context.Context, c *kube.Client, p *plan.Plan, opts Options) (res *Result, err error) {
	if opts.FieldManager == "" {
		opts.FieldManager = p.FieldManager
	}
	if emptySet(p) && !opts.AllowEmpty {
		return nil, ErrEmptySet
	}
	ignored, err := CheckSuspended(p, opts) // before anything, even the checked-at time, is written
	if err != nil {
		return nil, err
	}
	if InSync(p, opts.Revision) {
		res = unchangedResult(p)
		res.InSync = true
		return res, recordChecked(ctx, c, p, opts)
	}
	// Refusals that need no request come before the lock: a refused run
	// writes nothing at all.
	gd, err := CheckGuards(p, opts)
	if err != nil {
		return nil, err
	}
	gd.Used = append(gd.Used, ignored...)
	opts.guards = &gd
	if heldInSync(p, gd, opts.Revision) {
		// Only prunes held for approval differ, and the last run recorded
		// this revision: nothing to write until someone approves.
		res = unchangedResult(p)
		for i, o := range res.Objects {
			if gd.Withheld[o.Ref] {
				res.Objects[i].Outcome = Withheld
			}
		}
		res.Pending = gd.Pending
		return res, recordChecked(ctx, c, p, opts)
	}
	if err := CheckReplaces(p.Changes, opts.Replace); err != nil {
		return nil, err
	}
	if err := CheckOwners(p, opts.Adopt); err != nil {
		return nil, err
	}
	if err := plan.CheckWithheld(p); err != nil {
		return nil, err
	}
	if opts.ApplySet == nil {
		return Execute(ctx, c, p, opts)
	}
	lock, err := AcquireLock(ctx, c, LockOptions{Namespace: opts.ApplySet.Namespace, Name: LockName(*opts.ApplySet), Duration: opts.LockDuration})
	if err != nil {
		return nil, err
	}
	defer func() {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), recordTimeout)
		defer cancel()
		if rerr := lock.Release(rctx); rerr != nil {
			err = errors.Join(err, rerr)
		}
	}()
	// Every write from here on is fenced: once the lock is lost (taken
	// over after this process stalled, or not renewed in time) each
	// request is cancelled and no further write starts.
	fenced, cancel := lock.Fence(context.WithoutCancel(ctx))
	defer cancel()
	// The plan may have been made before the lock (or saved long ago):
	// refuse it if another apply moved the cluster meanwhile.
	if err := plan.CheckFresh(ctx, c, p); err != nil {
		return nil, errors.Join(err, recordFailure(fenced, c, *opts.ApplySet, opts.FieldManager, err))
	}
	waitCtx := ctx
	if opts.Stop != nil {
		var stopWait context.CancelFunc
		waitCtx, stopWait = context.WithCancel(ctx)
		defer stopWait()
		go func() {
			select {
			case <-opts.Stop:
				stopWait()
			case <-waitCtx.Done():
			}
		}()
	}
	return execute(waitCtx, fenced, c, p, opts)
}

// emptySet reports a plan that applies nothing: every change is a prune,
// or there is none.
func emptySet(p *plan.Plan) bool {
	for _, ch := range p.Changes {
		if ch.Action != plan.Prune {
			return false
		}
	}
	return true
}

// InSync reports whether applying p would write nothing at all: no object
// changes, and the ApplySet parent already records revision as ok.
func InSync(p *plan.Plan, revision string) bool {
	if p.HasChanges() {
		return false
	}
	if p.Parent == nil {
		return true
	}
	return p.Parent.Exists && p.Parent.Result == "ok" && (revision == "" || p.Parent.Revision == revision)
}

func unchangedResult(p *plan.Plan) *Result {
	res := &Result{}
	for _, ch := range p.Changes {
		res.Objects = append(res.Objects, ObjectResult{Ref: ch.Ref, Outcome: Unchanged})
	}
	return res
}
