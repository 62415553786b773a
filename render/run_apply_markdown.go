package render

import (
	"io"
	"math"
	"strings"

	"github.com/kubeplan/kubeplan/run"
)

// RunApplyMarkdown writes an applied run as a GitHub job summary:
//
//	### kubeplan apply: 5 projects
//
//	**Total: 5 projects, 2 applied, 1 failed, 1 skipped: 1 created, 1 configured, 1 pruned, 2 unchanged.**
//
//	| project | cluster | namespace | result | status |
//	|---|---|---|---|---|
//	| `shop-web-prod` | `prod` | `shop-prod` | 1 created, 1 configured, 1 pruned, 1 unchanged. | applied |
//
//	<details open><summary>shop-web-prod: applied</summary>
//	### kubeplan apply: namespace `shop-prod`, ...     the project's ApplyMarkdown
//	</details>
//
// A section is open when the project wrote something or failed. The
// output never exceeds o.MaxBytes (0: no limit); the sections share what
// the table leaves as RunPlan's markdown does. A Single run is written as
// ApplyMarkdown writes its project's apply (with o.Revision, the commit
// applied). o.LimitName names the limit in the note saying what was left
// out ("" names the job summary's). A project whose health wait failed
// shows why (ApplyMarkdown's "Why it failed").
func RunApplyMarkdown(w io.Writer, r *run.Report, o RunOptions) error {
	maxBytes := o.MaxBytes
	if p, ok, err := single(r); ok {
		if err != nil {
			return err
		}
		return applyMarkdown(w, singleApply(p, o), maxBytes, o.LimitName)
	}
	if maxBytes <= 0 {
		maxBytes = math.MaxInt
	}
	return runMarkdown(w, r, runMdDoc{verb: "kubeplan apply", total: RunApplySummary(r), limit: maxBytes,
		columns: "result |", align: "---|",
		cells: func(p run.ProjectReport) string {
			if p.Result == nil {
				return "- |"
			}
			return applyCounts(p.Result.Objects) + " |"
		},
		section: runApplySection,
	})
}

// runApplySection is a project's section of the apply markdown: its
// ApplyMarkdown (with the error when it failed) and lint's findings, or
// why it was skipped.
func runApplySection(p run.ProjectReport) runMdSection {
	s := runMdSection{title: runName(p) + ": " + string(p.Status), open: p.Result.Wrote() || p.Status == run.Failed}
	if p.Status == run.Skipped {
		s.content = runSkippedContent(p)
		return s
	}
	rep := applyReportOf(p)
	report := func(budget int) string {
		var b strings.Builder
		_ = applyMarkdown(&b, rep, budget, "")
		return b.String()
	}
	s.content = func(budget int) string { return withFindings(report(0), p, budget, "the job log", report) }
	return s
}
