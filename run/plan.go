package run

import (
	"context"
	"errors"
	"sync"

	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/guard"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/manifest/helm"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/workspace"
)

// Options configure a run.
type Options struct {
	// Workspace gives each project's lint settings, the directory the
	// projects' paths are relative to, and every project of the
	// repository, selected or not: a project's dependencies are found
	// there, and their CRDs validate its custom resources.
	Workspace *workspace.Workspace
	// Connect builds a cluster's client; it is called once per cluster.
	Connect Connector
	// Plan holds the settings every project's plan shares (field
	// manager, adopt, concurrency, revision, ...); Namespace, ApplySet
	// and Pending are set per project.
	Plan plan.Options
	// PerCluster bounds the projects run at once on one cluster
	// (default DefaultPerCluster).
	PerCluster int
	// Observer, when set, is told what the run does as it happens.
	Observer Observer
	// Objects, when set, is asked for a project's objects instead of
	// loading them; load is what run would do (lint, then read, for the
	// project's namespace). kubeplan serve keeps its answer per git
	// revision, so a round at an unchanged revision only reads the cluster.
	// The objects are never changed by plan (it works on copies).
	Objects func(p project.Project, namespace string, load func() ([]*manifest.Object, error)) ([]*manifest.Object, error)
	// Lookup lets a chart's lookup read the project's cluster with the
	// run's identity (plan.Lookup, one per cluster and run), as helm
	// install and upgrade do; without it lookup is empty (lint). The
	// Secrets' data is withheld from the templates when
	// Plan.SecretDataWithheld is set (plan).
	Lookup bool
	// Halt, when closed, stops the run from starting the plan of another
	// project; those under way finish, and are applied (kubeplan serve
	// on SIGTERM).
	Halt <-chan struct{}
	// Saved, when set, is the plan of a run of one project made from a
	// saved plan (kubeplan apply PLANFILE): nothing is loaded or planned,
	// the cluster is pinged, and the project's ApplySet is the plan's when
	// the project names none.
	Saved *plan.Plan
	// Single says the run is the one project a plain invocation's flags
	// make (workspace.Single): its Report is Single.
	Single bool
	// Approvals are the command line's (apply --approve RULE=REASON):
	// they count for every project.
	Approvals []guard.Approval
	// Approver, when set, finds more approvals for a project whose plan
	// has require-approval verdicts (GitHub reviews and labels, from the
	// rules' approvals: settings).
	Approver Approver
}

// Plan plans every project against its cluster, namespace and ApplySet,
// concurrently (bounded per cluster) and in dependsOn order. What a
// project it depends on would create (CRDs, Namespaces) counts as there
// (plan.Options.Pending). One project's failure is in its report and never
// stops the others, except those that depend on it, which are skipped.
// The error is for a run that could not start (a dependsOn cycle).
func Plan(ctx context.Context, ps []project.Project, o Options) (*Report, error) {
	r, _, err := o.plan(ctx, ps)
	return r, err
}

// planned is a project's plan with what applying it needs.
type planned struct {
	client *kube.Client
	parent *applyset.Parent
	err    error // why the project failed, when it did
	// approvals are the approvals that count for the project's
	// verdicts: the command line's and those the Approver found.
	approvals []guard.Approval
}

func (o *Options) plan(ctx context.Context, ps []project.Project) (*Report, []planned, error) {
	r := newReport(ps)
	r.Single = o.Single
	extra := make([]planned, len(ps))
	cls := newClusters(o.Connect)
	err := schedule(ctx, ps, r.Projects, o.PerCluster, o.Halt, func(ctx context.Context, i int, deps []*ProjectReport) {
		pr := &r.Projects[i]
		var depPlans []*plan.Plan
		for _, d := range deps {
			depPlans = append(depPlans, d.Plan)
		}
		extra[i] = o.planOne(ctx, cls, ps, pr, plan.PendingOf(o.Plan.Pending, depPlans...))
		o.done(*pr)
	})
	for i := range r.Projects {
		if r.Projects[i].Status == Skipped {
			o.done(r.Projects[i])
		}
	}
	return r, extra, err
}

// planOne plans one project into pr; pending is what the projects it
// depends on create (plan.Options.Pending).
func (o *Options) planOne(ctx context.Context, cls *clusters, ps []project.Project, pr *ProjectReport, pending plan.Pending) (pd planned) {
	defer func() {
		if pd.err != nil {
			pr.fail(pd.err)
		}
	}()
	p := pr.Project
	c, name, err := cls.client(p)
	pr.Cluster = name
	if err != nil {
		return planned{err: err}
	}
	pr.Namespace = c.Namespace
	as, err := o.parent(p, c.Namespace)
	if err != nil {
		return planned{err: err}
	}
	if as != nil {
		pr.ApplySet = as.String()
	}
	if o.Saved != nil {
		pd := savedPlan(ctx, cls, pr, o.Saved, c, as)
		if pd.err == nil {
			suspendedNow(ctx, c, pr.Plan)
			if err := plan.Rejudge(ctx, c, pr.Plan, as, o.guardOptions(p, name)); err != nil {
				return planned{client: c, parent: as, err: err}
			}
			pd.approvals, pd.err = o.approvals(ctx, pr)
		}
		return pd
	}
	ahead := o.readAhead(ctx, cls, ps, p)
	nss := plan.NewNamespaces(c, ahead)
	var one func() *plan.ReadAhead
	if ahead == nil && o.Saved == nil {
		one = readOne(ctx, cls, p, c, as, nss)
	}
	objs, err := o.objects(cls, p, c.Namespace, o.liveNamespaces(ctx, cls, p, nss))
	if err != nil {
		return planned{client: c, parent: as, err: err}
	}
	if err := cls.ping(ctx, p); err != nil {
		return planned{err: err}
	}
	if one != nil {
		ahead = one()
	}
	opts := o.planOptions(p, c.Namespace, as, pending)
	opts.Namespaces, opts.ReadAhead = nss, ahead
	pl, err := plan.Make(ctx, c, objs, opts)
	if err != nil {
		return planned{client: c, parent: as, err: err}
	}
	pr.Plan, pr.Status = pl, NoChanges
	if pl.HasChanges() {
		pr.Status = Changes
	}
	approvals, err := o.approvals(ctx, pr)
	return planned{client: c, parent: as, approvals: approvals, err: err}
}

// liveNamespaces is what the pod-security lint rule reads the levels of
// the live Namespaces with (lint.Options.LiveNamespaceLabels): nss, once
// p's cluster answers (an unreachable cluster fails the plan at the
// ping, not in lint).
func (o *Options) liveNamespaces(ctx context.Context, cls *clusters, p project.Project, nss *plan.Namespaces) func(string) (map[string]string, bool) {
	return func(name string) (map[string]string, bool) {
		if cls.ping(ctx, p) != nil {
			return nil, false
		}
		return nss.Labels(ctx, name)
	}
}

// objects are p's objects, linted for namespace (Options.Objects, or
// load): a chart's lookup reads p's cluster when Options.Lookup; live
// reads the labels of the Namespaces the set does not hold.
func (o *Options) objects(cls *clusters, p project.Project, namespace string, live func(string) (map[string]string, bool)) ([]*manifest.Object, error) {
	if o.Plan.AllowOtherNamespaces {
		namespace = ""
	}
	var lookup helm.Lookup
	if o.Lookup {
		if l := cls.lookup(p); l != nil {
			lookup = l
		}
	}
	o.observer().Started(p)
	load := func() ([]*manifest.Object, error) { return o.load(p, namespace, lookup, live) }
	if o.Objects != nil {
		return o.Objects(p, namespace, load)
	}
	return load()
}

// planOptions are p's plan options: the run's, in namespace, against the
// ApplySet as, with what its dependencies create (pending); the
// Observer's Planning follows it when it is a ProgressObserver.
func (o *Options) planOptions(p project.Project, namespace string, as *applyset.Parent, pending plan.Pending) plan.Options {
	opts := o.Plan
	opts.Namespace, opts.ApplySet, opts.Progress, opts.Pending = namespace, as, nil, pending
	opts.Guards = o.guardOptions(p, "")
	opts.RollOnConfigChange = opts.RollOnConfigChange || p.RollOnConfigChange
	opts.Yield = p.Yield
	if po, ok := o.observer().(ProgressObserver); ok {
		opts.Progress = func(done, total int) { po.Planning(p, done, total) }
	}
	return opts
}

// parent is p's ApplySet parent in namespace, nil when it has none; a
// saved plan's when p names none (Options.Saved).
func (o *Options) parent(p project.Project, namespace string) (*applyset.Parent, error) {
	if p.ApplySet != "" {
		parent, err := applyset.ParseParentFlag(p.ApplySet, namespace)
		return &parent, err
	}
	if o.Saved != nil && o.Saved.Parent != nil {
		ref := o.Saved.Parent.Ref
		return &applyset.Parent{Kind: ref.Kind, Name: ref.Name, Namespace: ref.Namespace}, nil
	}
	return nil, nil
}

// savedPlan makes pl, a saved plan, pr's plan once the cluster answers.
func savedPlan(ctx context.Context, cls *clusters, pr *ProjectReport, pl *plan.Plan, c *kube.Client, as *applyset.Parent) planned {
	if err := cls.ping(ctx, pr.Project); err != nil {
		return planned{err: err}
	}
	pr.Plan, pr.Status = pl, NoChanges
	if pl.HasChanges() {
		pr.Status = Changes
	}
	return planned{client: c, parent: as}
}

// fail records err as the project's failure.
func (pr *ProjectReport) fail(err error) {
	pr.Status, pr.Error, pr.Err = Failed, err.Error(), err
	var le *LintError
	if errors.As(err, &le) {
		pr.Findings = le.Report.Findings
	}
}

func newReport(ps []project.Project) *Report {
	r := &Report{Version: FormatVersion, Projects: make([]ProjectReport, len(ps))}
	for i, p := range ps {
		r.Projects[i] = ProjectReport{Project: p, Cluster: p.Cluster(), Namespace: p.Namespace, ApplySet: p.ApplySet}
	}
	return r
}

// readAhead is what p's plan takes from reads made for every project of
// the run on p's cluster at once (plan.ReadAhead), made by the first of
// them to get here, once its cluster answers; nil for a run of one
// project on that cluster, or a saved plan.
func (o *Options) readAhead(ctx context.Context, cls *clusters, ps []project.Project, p project.Project) *plan.ReadAhead {
	var same []project.Project
	for _, q := range ps {
		if q.Cluster() == p.Cluster() {
			same = append(same, q)
		}
	}
	if len(same) < 2 || o.Saved != nil {
		return nil
	}
	cl := cls.get(p)
	cl.aheadOnce.Do(func() {
		if cl.err != nil || cls.ping(ctx, p) != nil {
			return // each project reports it
		}
		var parents []applyset.Parent
		for _, q := range same {
			c, _, err := cls.client(q)
			if err != nil {
				continue
			}
			if as, err := o.parent(q, c.Namespace); err == nil && as != nil {
				parents = append(parents, *as)
			}
		}
		cl.ahead = plan.ReadAheadFor(ctx, cl.c, parents)
	})
	return cl.ahead
}

// readOne starts the reads p's plan makes whatever its objects are
// (plan.ReadAheadOne), once p's cluster answers, while its objects are
// loaded and linted; the function returned waits for them (nil when the
// cluster did not answer: the ping's error is the project's). The guard
// rules are compiled meanwhile too (once per workspace; the plan waits
// for it if it needs them first).
func readOne(ctx context.Context, cls *clusters, p project.Project, c *kube.Client, as *applyset.Parent, nss *plan.Namespaces) func() *plan.ReadAhead {
	if p.Guards != nil {
		go p.Guards.NeedsObjects()
	}
	done := make(chan *plan.ReadAhead, 1)
	go func() {
		if cls.ping(ctx, p) != nil {
			done <- nil
			return
		}
		done <- plan.ReadAheadOne(ctx, c, c.Namespace, as, nss)
	}()
	return sync.OnceValue(func() *plan.ReadAhead { return <-done })
}
