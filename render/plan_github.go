package render

import (
	"fmt"
	"strings"

	"github.com/kubeplan/kubeplan/internal/ghactions"
	"github.com/kubeplan/kubeplan/plan"
)

// PlanAnnotations are the errors and warnings a plan puts on a pull
// request in GitHub Actions: an error per verdict of a rule that denies
// the plan and a warning per verdict that waits for an approval (the
// flag that approves it in its message; guardAnnotations), then one
// warning per drifted object, on the line where the object is defined
// (its fields and managers, never values), one per replace on its line
// (with the immutable fields that force it), and one per prune (the object
// left the manifests, so it has no line), after one per warning the API
// server returned with an object's dry-run, on its line
// (apiWarningAnnotations). Of those warnings, objects
// another owner manages (plan.Change.Owner) come first, on their lines:
// apply refuses them without --adopt. At most ghactions.MaxAnnotations errors and as many
// warnings are returned, in that order (capAnnotations); when more were
// left out, a last notice says how many and that the job summary has the
// whole plan. In a plan with stages, each message about a change ends
// with its stage.
func PlanAnnotations(p *plan.Plan) []ghactions.Annotation {
	return capAnnotations(planAnnotations(p))
}

// planAnnotations are PlanAnnotations, all of them.
func planAnnotations(p *plan.Plan) []ghactions.Annotation {
	out := guardAnnotations(p)
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
	out = append(out, apiWarningAnnotations(p)...)
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

// capAnnotations keeps, as GitHub shows per step, the first
// ghactions.MaxAnnotations errors (denied guard verdicts) and the first
// ghactions.MaxAnnotations warnings, errors first, and adds a notice
// counting each kind it left out.
func capAnnotations(all []ghactions.Annotation) []ghactions.Annotation {
	var errs, warns []ghactions.Annotation
	for _, a := range all {
		if a.Level == ghactions.LevelError {
			errs = append(errs, a)
		} else {
			warns = append(warns, a)
		}
	}
	var notices []ghactions.Annotation
	if n := len(errs) - ghactions.MaxAnnotations; n > 0 {
		errs = errs[:ghactions.MaxAnnotations]
		notices = append(notices, ghactions.Annotation{Level: ghactions.LevelNotice, Title: "kubeplan plan",
			Message: fmt.Sprintf("%d more denied guard %s not annotated (GitHub shows %d per step); the job summary has the whole plan.",
				n, map[bool]string{true: "verdict was", false: "verdicts were"}[n == 1], ghactions.MaxAnnotations)})
	}
	if n := len(warns) - ghactions.MaxAnnotations; n > 0 {
		warns = warns[:ghactions.MaxAnnotations]
		notices = append(notices, ghactions.Annotation{Level: ghactions.LevelNotice, Title: "kubeplan plan",
			Message: fmt.Sprintf("%d more guard, drift, replace and prune %s not annotated (GitHub shows %d per step); the job summary has the whole plan.",
				n, map[bool]string{true: "warning was", false: "warnings were"}[n == 1], ghactions.MaxAnnotations)})
	}
	return append(append(errs, warns...), notices...)
}

// guardAnnotations are an error per denied verdict and a warning per
// verdict waiting for an approval, at the file the change comes from
// when it is a manifest (a prune's is the project's directory: no line
// to point at), its message saying what approves it.
func guardAnnotations(p *plan.Plan) []ghactions.Annotation {
	var out []ghactions.Annotation
	g := groupGuards(p.Guards)
	for _, k := range []guardKind{guardDenied, guardPending} {
		level, title := ghactions.LevelError, " denies"
		if k == guardPending {
			level, title = ghactions.LevelWarning, " needs approval"
		}
		for _, v := range g[k] {
			a := ghactions.Annotation{Level: level, Title: printable(v.Rule) + title, Message: verdictText(v, k, "\n")}
			if k == guardDenied {
				a.Message += " (no approval lets it through)"
			}
			if len(v.Files) > 0 && isManifestFile(v.Files[0]) {
				a.File = v.Files[0]
			}
			out = append(out, a)
		}
	}
	return out
}

// isManifestFile reports whether path names a manifest file, not a
// directory, so that an annotation can be put on it.
func isManifestFile(path string) bool {
	for _, ext := range []string{".yaml", ".yml", ".json"} {
		if strings.HasSuffix(path, ext) {
			return true
		}
	}
	return false
}
