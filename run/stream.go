package run

import (
	"context"

	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/project"
)

// applyStream is Apply with ApplyOptions.Stream: each project is planned
// and applied in one step, after the projects it depends on were applied,
// and its plan and result are dropped once the Observer has seen them. At most
// PerCluster plans per cluster are held at once, whatever the number of
// projects. What a dependency created (CRDs, Namespaces) is planned as
// pending, as in Apply: the shared REST mapper may not know the new kinds
// yet, and apply learns them before writing (apply resets the mapper for
// objects planned after a CRD).
func applyStream(ctx context.Context, ps []project.Project, o ApplyOptions) (*Report, error) {
	r := newReport(ps)
	cls := newClusters(o.Connect)
	created := make([]plan.Pending, len(ps)) // what each project's plan created
	index := map[*ProjectReport]int{}
	for i := range r.Projects {
		index[&r.Projects[i]] = i
	}
	err := schedule(ctx, ps, r.Projects, o.PerCluster, o.Halt, func(ctx context.Context, i int, deps []*ProjectReport) {
		pr := &r.Projects[i]
		pending := o.Plan.Pending
		for _, d := range deps {
			pending = mergePending(pending, created[index[d]])
		}
		pd := o.planOne(ctx, cls, nil, pr, pending) // no read-ahead: projects are applied in turn
		if pr.Plan != nil && pr.Status != Failed {
			if err := o.check(pr, pd); err != nil {
				pd.err = err
			}
		}
		o.applyOne(ctx, pr, pd)
		o.done(*pr)
		created[i] = plan.PendingOf(plan.Pending{}, pr.Plan)
		pr.Plan, pr.Result = nil, nil
	})
	for i := range r.Projects {
		if r.Projects[i].Status == Skipped {
			o.done(r.Projects[i])
		}
	}
	return r, err
}

// mergePending is a and b together, in new maps.
func mergePending(a, b plan.Pending) plan.Pending {
	out := plan.Pending{Kinds: map[string]bool{}, Namespaces: map[string]bool{}}
	for _, p := range []plan.Pending{a, b} {
		for k := range p.Kinds {
			out.Kinds[k] = true
		}
		for n := range p.Namespaces {
			out.Namespaces[n] = true
		}
	}
	return out
}
