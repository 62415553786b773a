package render

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/kubeplan/kubeplan/run"
)

// RunOptions are the choices the caller makes for the views of a run
// (RunPlan, RunApply, RunApplyMarkdown): the same as for one plan.
// MaxBytes caps the whole markdown, which the projects' sections share.
type RunOptions = PlanOptions

type runRenderer func(w io.Writer, r *run.Report, o RunOptions) error

// runPlanRenderers maps --output names to renderers, in the order
// RunPlanFormats lists them.
var runPlanRenderers = formats[runRenderer]{
	{"text", runPlanText},
	{"markdown", runPlanMarkdown},
	{"json", runPlanJSON},
}

// RunPlanFormats returns the formats RunPlan accepts, in a stable order:
// the same as PlanFormats.
func RunPlanFormats() []string { return runPlanRenderers.names() }

// RunPlan writes the plans of a run in the given format: a section per
// project, in the report's order, and the total. A Single run is written
// as Plan writes its project's plan (nothing when there is none). An
// unknown format is an error that lists the valid ones, and nothing is
// written. Like Plan, no format prints Change.Object.
func RunPlan(w io.Writer, format string, r *run.Report, o RunOptions) error {
	render, err := runPlanRenderers.find(format)
	if err != nil {
		return err
	}
	if r == nil {
		return errors.New("render: nil run report")
	}
	if p, ok, err := single(r); ok {
		if err != nil || p.Plan == nil {
			return err
		}
		return Plan(w, format, p.Plan, o)
	}
	return render(w, r, o)
}

// RunSummary is the last line of a planned run, the plans' summary lines
// added up in the words of plan.Summary:
//
//	Total: 6 projects, 2 with changes, 1 failed, 1 skipped: 5 to add, 1 to change, 2 to prune, 12 unchanged, 1 drifted.
//
// The failed, skipped and drifted parts (and replace and release, as in
// the plan's line) appear only when not zero, and so do the projects the
// rules over plans deny, those awaiting an approval and those outside
// their change windows (", 1 denied by guards, 1 awaiting approval, 1
// outside its change window", GuardTally). A Single run's is its
// plan's summary line (plan.Summary), "" when it has no plan.
func RunSummary(r *run.Report) string {
	if p, ok, _ := single(r); ok {
		if p.Plan == nil {
			return ""
		}
		return p.Plan.Summary().String()
	}
	t := r.Total()
	counts := strings.TrimSuffix(strings.TrimPrefix(t.Summary.String(), "Plan: "), ".")
	if t.Drifted > 0 {
		counts += fmt.Sprintf(", %d drifted", t.Drifted)
	}
	return fmt.Sprintf("Total: %s, %d with changes%s%s: %s.", plural(t.Projects, "project"), t.WithChanges, runProblems(t), RunGuards(r).planPart(), counts)
}

// runProblems is ", 1 failed, 2 skipped", each part only when not zero.
func runProblems(t run.Total) string {
	s := ""
	if t.Failed > 0 {
		s += fmt.Sprintf(", %d failed", t.Failed)
	}
	if t.Skipped > 0 {
		s += fmt.Sprintf(", %d skipped", t.Skipped)
	}
	return s
}

// runScope lists where a project runs: "cluster prod", "namespace
// shop-prod" and its ApplySet, each only when known.
func runScope(p run.ProjectReport) []string {
	var parts []string
	if p.Cluster != "" {
		parts = append(parts, "cluster "+p.Cluster)
	}
	if p.Namespace != "" {
		parts = append(parts, "namespace "+p.Namespace)
	}
	if p.ApplySet != "" {
		parts = append(parts, p.ApplySet)
	}
	return parts
}

// runName is the project's name, its path when it has none.
func runName(p run.ProjectReport) string {
	if p.Project.Name != "" {
		return p.Project.Name
	}
	return p.Project.Path
}
