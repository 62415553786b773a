package run

import (
	"context"
	"errors"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/project"
)

// SuspendReport is what suspend, resume or sync --via-serve did to one
// project's ApplySet parent.
type SuspendReport struct {
	Project   string `json:"project,omitempty"` // "" for a plain invocation's set
	Cluster   string `json:"cluster"`
	Namespace string `json:"namespace"`
	ApplySet  string `json:"applyset"`
	// Before and Now are the suspension the parent held before and holds
	// after (suspend, resume).
	Before *plan.Suspension `json:"before,omitempty"`
	Now    *plan.Suspension `json:"suspended,omitempty"`
	// Sync is serve's answer to a sync request.
	Sync  *apply.SyncDone `json:"sync,omitempty"`
	Error string          `json:"error,omitempty"`
	Err   error           `json:"-"`
}

// ParentOp is suspend's, resume's or a sync request's work on one
// parent: c is the project's client, as its parent; it fills r.
type ParentOp func(ctx context.Context, c *kube.Client, as applyset.Parent, r *SuspendReport) error

// SuspendOp suspends with reason, recorded as by (apply.Who; actor is
// $GITHUB_ACTOR, fallback the login user).
func SuspendOp(reason, actor, fallback string) ParentOp {
	return func(ctx context.Context, c *kube.Client, as applyset.Parent, r *SuspendReport) error {
		s, err := apply.Suspend(ctx, c, as, plan.Suspension{By: apply.Who(ctx, c, actor, fallback), Reason: reason})
		if s != nil {
			r.Before, r.Now = s.Before, s.Now
		}
		return err
	}
}

// ResumeOp resumes, recorded as by (as SuspendOp).
func ResumeOp(actor, fallback string) ParentOp {
	return func(ctx context.Context, c *kube.Client, as applyset.Parent, r *SuspendReport) error {
		s, err := apply.Resume(ctx, c, as, apply.Who(ctx, c, actor, fallback))
		if s != nil {
			r.Before = s.Before
		}
		return err
	}
}

// SyncRequestOp asks kubeplan serve to run the set now and waits up to
// wait for its answer, reading the parent every poll.
func SyncRequestOp(wait, poll time.Duration) ParentOp {
	return func(ctx context.Context, c *kube.Client, as applyset.Parent, r *SuspendReport) error {
		at, err := apply.RequestSync(ctx, c, as)
		if err != nil {
			return err
		}
		wctx, cancel := context.WithTimeout(ctx, wait)
		defer cancel()
		r.Sync, err = apply.WaitSynced(wctx, c, as, at, poll)
		if err == nil && r.Sync.Result != "ok" {
			err = errors.New(r.Sync.Error)
			if r.Sync.Error == "" {
				err = errors.New("kubeplan serve's run: " + r.Sync.Result)
			}
		}
		return err
	}
}

// EachParent does op on the ApplySet parent of every project,
// concurrently (bounded per cluster): it writes nothing else. single is
// a plain invocation's set (the report names no project).
func EachParent(ctx context.Context, ps []project.Project, connect Connector, single bool, op ParentOp) []SuspendReport {
	out := make([]SuspendReport, len(ps))
	reps := newReport(ps).Projects
	cls := newClusters(connect)
	flat := make([]project.Project, len(ps))
	for i, p := range ps {
		p.DependsOn = nil
		flat[i] = p
	}
	_ = schedule(ctx, flat, reps, 0, nil, func(ctx context.Context, i int, _ []*ProjectReport) {
		r := &out[i]
		if !single {
			r.Project = ps[i].Name
		}
		if err := parentOp(ctx, cls, ps[i], r, op); err != nil {
			r.Error, r.Err = err.Error(), err
		}
	})
	return out
}

func parentOp(ctx context.Context, cls *clusters, p project.Project, r *SuspendReport, op ParentOp) error {
	c, name, err := cls.client(p)
	r.Cluster = name
	if err != nil {
		return err
	}
	r.Namespace = c.Namespace
	if err := cls.ping(ctx, p); err != nil {
		return err
	}
	as, err := applyset.ParseParentFlag(p.ApplySet, c.Namespace)
	if err != nil {
		return err
	}
	r.ApplySet = as.String()
	err = op(ctx, c, as, r)
	var se *apply.SuspendedError
	if errors.As(err, &se) && r.Project != "" {
		se.Project = r.Project
	}
	return err
}

// checkSuspended refuses pr's plan when its set is suspended
// (apply.CheckSuspended), naming the project; Reconcile asks again, and
// records an --ignore-suspend.
func (o *ApplyOptions) checkSuspended(pr *ProjectReport, pd planned) error {
	_, err := apply.CheckSuspended(pr.Plan, o.applyOptions(pr, pd))
	var se *apply.SuspendedError
	if errors.As(err, &se) && !o.Single {
		se.Project = pr.Project.Name
	}
	return err
}

// suspendedNow reads the parent of a saved plan again for its suspension:
// the plan may have been saved before the set was suspended.
func suspendedNow(ctx context.Context, c *kube.Client, pl *plan.Plan) {
	if pl.Parent == nil || !pl.Parent.Exists {
		return
	}
	ref := pl.Parent.Ref
	live, err := c.Metadata.Resource(schema.GroupVersionResource{Version: "v1", Resource: ref.Resource}).Namespace(ref.Namespace).Get(ctx, ref.Name, metav1.GetOptions{})
	if err != nil {
		return // CheckFresh reports a parent that moved or went
	}
	pl.Parent.Suspended = plan.ParseSuspension(live.GetAnnotations()[plan.AnnotationSuspended])
}

// suspended reports a refusal for a suspended set: not a failure to
// record on the parent (a suspended set gets no write).
func suspended(err error) bool {
	var se *apply.SuspendedError
	return errors.As(err, &se)
}
