package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/kubeplan/kubeplan/run"
)

// RunOptions are the choices the caller makes for the views of a run over
// many projects (RunPlan, RunApply).
type RunOptions struct {
	// Color enables ANSI colour in the text format (see PlanOptions).
	Color bool
	// MaxBytes caps the markdown output (UTF-8 bytes, final newline
	// included). 0 means DefaultMaxBytes, GitHub's comment limit.
	MaxBytes int
	// SummaryHint says where the full plans are when markdown had to cut
	// some, e.g. "the job log"; default "the job summary".
	SummaryHint string
	// SummaryURL, when set, makes SummaryHint a link to it (the run page,
	// where the job summary is).
	SummaryURL string
	// LimitName names the limit MaxBytes stands for, e.g. "the job
	// summary's 1 MiB limit"; default "GitHub's N-character limit".
	LimitName string
}

type runRenderer func(w io.Writer, r *run.Report, o RunOptions) error

// runPlanRenderers maps --output names to renderers, in the order
// RunPlanFormats lists them.
var runPlanRenderers = []struct {
	name   string
	render runRenderer
}{
	{"text", runPlanText},
	{"markdown", runPlanMarkdown},
	{"json", runPlanJSON},
}

// RunPlanFormats returns the formats RunPlan accepts, in a stable order:
// the same as PlanFormats.
func RunPlanFormats() []string {
	names := make([]string, len(runPlanRenderers))
	for i, r := range runPlanRenderers {
		names[i] = r.name
	}
	return names
}

// RunPlan writes the plans of a run in the given format: a section per
// project, in the report's order, and the total. An unknown format is an
// error that lists the valid ones, and nothing is written. Like Plan, no
// format prints Change.Object.
func RunPlan(w io.Writer, format string, r *run.Report, o RunOptions) error {
	for _, f := range runPlanRenderers {
		if f.name == format {
			if r == nil {
				return fmt.Errorf("render: nil run report")
			}
			return f.render(w, r, o)
		}
	}
	return fmt.Errorf("unknown output format %q (want one of %s)", format, strings.Join(RunPlanFormats(), ", "))
}

// RunSummary is the last line of a planned run, the plans' summary lines
// added up in the words of plan.Summary:
//
//	Total: 6 projects, 2 with changes, 1 failed, 1 skipped: 5 to add, 1 to change, 2 to prune, 12 unchanged, 1 drifted.
//
// The failed, skipped and drifted parts (and replace and release, as in
// the plan's line) appear only when not zero.
func RunSummary(r *run.Report) string {
	t := r.Total()
	counts := strings.TrimSuffix(strings.TrimPrefix(t.Summary.String(), "Plan: "), ".")
	if t.Drifted > 0 {
		counts += fmt.Sprintf(", %d drifted", t.Drifted)
	}
	return fmt.Sprintf("Total: %s, %d with changes%s: %s.", plural(t.Projects, "project"), t.WithChanges, runProblems(t), counts)
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
