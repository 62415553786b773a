package render

import (
	"io"
	"strings"

	"github.com/kubeplan/kubeplan/run"
)

// runPlanText writes, per project, a header line and then what kubeplan
// plan prints for that project alone (planText, with its colour), or why
// there is no plan: lint's findings as lint prints them, the error, the
// reason it was skipped. The run's total is the last line:
//
//	── shop-web-prod · cluster prod · namespace shop-prod · configmap/kubeplan-shop-web-prod
//
//	+ create deployment.apps/web (web/deployment.yaml:1:1)
//	...
//	Plan: 1 to add, 1 to change, 1 to prune, 3 unchanged.
//
//	── shop-api-prod · cluster prod · namespace shop-prod · configmap/kubeplan-shop-api-prod
//	api/deployment.yaml:12:9: error schema: spec.replicas: expected integer (deployment.apps/api)
//	Failed: lint: 1 error
//
//	── shop-worker-prod · cluster prod · namespace shop-prod
//	Skipped: shop-api-prod failed
//
//	Total: 3 projects, 1 with changes, 1 failed, 1 skipped: 1 to add, 1 to change, 1 to prune, 3 unchanged.
func runPlanText(w io.Writer, r *run.Report, o RunOptions) error {
	return runText(w, r, o.Color, RunSummary(r), func(b *strings.Builder, p run.ProjectReport) error {
		if p.Plan != nil {
			if err := planText(b, p.Plan, PlanOptions{Color: o.Color}); err != nil {
				return err
			}
		}
		runProblemText(b, p, o.Color)
		return nil
	})
}

// runText writes the sections of the text views (RunPlan, RunApply): a
// header line per project, the body body writes, a blank line, and total.
func runText(w io.Writer, r *run.Report, color bool, total string, body func(*strings.Builder, run.ProjectReport) error) error {
	var b strings.Builder
	for _, p := range r.Projects {
		head := "── " + printable(strings.Join(append([]string{runName(p)}, runScope(p)...), " · "))
		if color {
			head = ansiBold + head + ansiReset
		}
		b.WriteString(head + "\n")
		if err := body(&b, p); err != nil {
			return err
		}
		b.WriteString("\n")
	}
	b.WriteString(total + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// runProblemText writes why a project failed or was skipped: its lint
// findings, one line each as kubeplan lint prints them, then
//
//	Failed: the error
//	Skipped: the reason
//
// with the error's further lines indented.
func runProblemText(b *strings.Builder, p run.ProjectReport, color bool) {
	for _, f := range p.Findings {
		b.WriteString(findingLine(f, color))
	}
	word := ""
	switch p.Status {
	case run.Failed:
		word = "Failed"
		if color {
			word = ansiDel + word + ansiReset
		}
	case run.Skipped:
		word = "Skipped"
	default:
		if p.Error == "" {
			return
		}
		word = "Error"
	}
	if p.Error == "" {
		b.WriteString(word + ".\n")
		return
	}
	lines := diffLines(p.Error)
	for i, l := range lines {
		lines[i] = printable(l)
	}
	b.WriteString(word + ": " + strings.Join(lines, "\n  ") + "\n")
}
