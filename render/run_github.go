package render

import (
	"github.com/kubeplan/kubeplan/internal/ghactions"
	"github.com/kubeplan/kubeplan/run"
)

// RunAnnotations are PlanAnnotations for every project of a run, in the
// report's order, each title naming its project ("drift in
// shop-web-prod"); at most ghactions.MaxAnnotations in all, and a notice
// counting the rest. A Single run's are its plan's PlanAnnotations,
// titles as they are.
func RunAnnotations(r *run.Report) []ghactions.Annotation {
	if p, ok, _ := single(r); ok {
		if p.Plan == nil {
			return nil
		}
		return PlanAnnotations(p.Plan)
	}
	var out []ghactions.Annotation
	for _, p := range r.Projects {
		if p.Plan == nil {
			continue
		}
		for _, a := range planAnnotations(p.Plan) {
			a.Title += " in " + printable(runName(p))
			out = append(out, a)
		}
	}
	return capAnnotations(out)
}
