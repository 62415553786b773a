package render

import (
	"fmt"

	"github.com/kubeplan/kubeplan/internal/ghactions"
	"github.com/kubeplan/kubeplan/plan"
)

// PlanAnnotations are the warnings a plan puts on a pull request in GitHub
// Actions: one per drifted object, on the line where the object is defined
// (its fields and managers, never values), one per replace on its line
// (with the immutable fields that force it), and one per prune (the object
// left the manifests, so it has no line). Objects another owner manages
// (plan.Change.Owner) come first, on their lines: apply refuses them
// without --adopt. At most ghactions.MaxAnnotations are returned, owners
// first, then drift, then replacements; when more were left out, a last
// notice says how many and that the job summary has the whole plan. In a
// plan with stages, each message ends with the change's stage.
func PlanAnnotations(p *plan.Plan) []ghactions.Annotation {
	return capAnnotations(planAnnotations(p))
}

// planAnnotations are PlanAnnotations, all of them.
func planAnnotations(p *plan.Plan) []ghactions.Annotation {
	var out []ghactions.Annotation
	for _, c := range sortedChanges(p) {
		if c.Owner == "" {
			continue
		}
		out = append(out, ghactions.Annotation{Level: ghactions.LevelWarning, File: c.Source.File, Line: c.Source.Line, Title: "owner",
			Message: changeLabel(p, c.Ref) + " is owned by " + printable(c.Owner) + "; apply takes it over only with --adopt"})
	}
	for _, c := range sortedChanges(p) {
		if len(c.Drift) == 0 {
			continue
		}
		msg := changeLabel(p, c.Ref) + " was changed in the cluster, and applying takes it back:"
		for _, d := range c.Drift {
			msg += fmt.Sprintf("\n%s (set by %s)", printable(d.Field), printable(d.Manager))
		}
		out = append(out, ghactions.Annotation{Level: ghactions.LevelWarning, File: c.Source.File, Line: c.Source.Line,
			Title: "drift", Message: msg + annotationStage(c)})
	}
	for _, c := range sortedChanges(p) {
		if c.Action != plan.Replace {
			continue
		}
		out = append(out, ghactions.Annotation{Level: ghactions.LevelWarning, File: c.Source.File, Line: c.Source.Line, Title: "replace",
			Message: "applying deletes " + changeLabel(p, c.Ref) + " and creates it again: " + printable(c.Reason) + annotationStage(c)})
	}
	prunes := sortedChanges(p)
	if len(p.Stages) > 0 {
		prunes = p.Changes // in the order apply prunes: reverse stage order
	}
	for _, c := range prunes {
		if c.Action != plan.Prune {
			continue
		}
		out = append(out, ghactions.Annotation{Level: ghactions.LevelWarning, Title: "prune",
			Message: "applying deletes " + changeLabel(p, c.Ref) + " from the cluster: it is no longer in the manifests" + annotationStage(c)})
	}
	return out
}

// annotationStage says, for a plan with stages, in which stage apply
// writes c ("\nstage: wave 0"), or when it prunes it ("\npruned after
// the last wave; it was in wave 1"); "" without stages.
func annotationStage(c plan.Change) string {
	switch {
	case c.Stage == "":
		return ""
	case c.Action == plan.Prune:
		return "\npruned after the last wave; it was in " + printable(c.Stage)
	}
	return "\nstage: " + printable(c.Stage)
}

// capAnnotations keeps the first ghactions.MaxAnnotations and adds a
// notice counting the rest.
func capAnnotations(out []ghactions.Annotation) []ghactions.Annotation {
	if n := len(out) - ghactions.MaxAnnotations; n > 0 {
		out = append(out[:ghactions.MaxAnnotations], ghactions.Annotation{Level: ghactions.LevelNotice, Title: "kubeplan plan",
			Message: fmt.Sprintf("%d more drift, replace and prune %s not annotated (GitHub shows %d per step); the job summary has the whole plan.",
				n, map[bool]string{true: "warning was", false: "warnings were"}[n == 1], ghactions.MaxAnnotations)})
	}
	return out
}
