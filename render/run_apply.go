package render

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/run"
)

// RunApply writes what a run of apply over many projects did, in format:
//
//   - text: per project a header line (as RunPlan's), then what kubeplan
//     apply prints for that project alone (a line per object and the
//     "Apply: ..." line; nothing when it failed before writing), lint's
//     findings, and why it failed or was skipped; the last line is
//     RunApplySummary;
//   - json: {"version": 1, "projects": [...], "total": {...}}, each project
//     as in RunPlan's JSON (name, path, cluster, namespace, applyset,
//     status, error, findings) with "result" (as apply's JSON: objects,
//     health, inSync) when apply ran, "failedStage" when an ordered run
//     stopped at a stage, and total {projects, applied,
//     withChanges, failed, skipped, refused (when not 0: the failed
//     projects the guards refused)} (docs/output.md).
//
// A Single run is written as Apply writes its project's apply (with
// o.Revision, the commit applied), nothing when apply did not run. Like
// Apply, an unknown format is an error and nothing is written.
func RunApply(w io.Writer, format string, r *run.Report, o RunOptions) error {
	if !slices.Contains(ApplyFormats(), format) {
		return errApplyFormat(format)
	}
	if p, ok, err := single(r); ok {
		if err != nil || p.Result == nil {
			return err
		}
		return Apply(w, format, singleApply(p, o))
	}
	if format == "json" {
		return runApplyJSON(w, r)
	}
	return runText(w, r, o.Color, RunApplySummary(r), func(b *strings.Builder, p run.ProjectReport) error {
		if p.Result != nil {
			rep := applyReportOf(p)
			rep.Err = "" // runProblemText says it
			if err := applyText(b, rep); err != nil {
				return err
			}
		}
		runProblemText(b, p, o.Color)
		return nil
	})
}

// RunApplySummary is the last line of an applied run, ApplySummary's
// counts added up over the projects:
//
//	Total: 5 projects, 2 applied, 1 failed, 1 skipped: 1 created, 1 configured, 1 pruned, 2 unchanged.
//
// The failed and skipped parts appear only when not zero, and so does
// the number of projects the guards refused (", 1 refused by guards",
// counted among the failed). A Single run's is its ApplySummary.
func RunApplySummary(r *run.Report) string {
	if p, ok, _ := single(r); ok {
		return ApplySummary(p.Result)
	}
	var objs []apply.ObjectResult
	applied := 0
	for _, p := range r.Projects {
		if p.Status == run.Applied {
			applied++
		}
		if p.Result != nil {
			objs = append(objs, p.Result.Objects...)
		}
	}
	return fmt.Sprintf("Total: %s, %d applied%s%s: %s", plural(len(r.Projects), "project"), applied, runProblems(r.Total()), RunGuards(r).applyPart(), applyCounts(objs))
}

type jsonRunApplyProject struct {
	jsonRunProject
	Result *apply.Result `json:"result,omitempty"`
	// FailedStage is the stage a failed ordered run stopped at.
	FailedStage string `json:"failedStage,omitempty"`
}

func runApplyJSON(w io.Writer, r *run.Report) error {
	t := r.Total()
	total := struct {
		Projects    int `json:"projects"`
		Applied     int `json:"applied"`
		WithChanges int `json:"withChanges"`
		Failed      int `json:"failed"`
		Skipped     int `json:"skipped"`
		// Refused counts the failed projects the guards refused.
		Refused int `json:"refused,omitempty"`
	}{Projects: t.Projects, WithChanges: t.WithChanges, Failed: t.Failed, Skipped: t.Skipped, Refused: RunGuards(r).Refused}
	for _, p := range r.Projects {
		if p.Status == run.Applied {
			total.Applied++
		}
	}
	return writeRunJSON(w, r, total, func(p run.ProjectReport) jsonRunApplyProject {
		jp := jsonRunApplyProject{jsonRunProject: jsonProject(p), Result: p.Result, FailedStage: apply.FailedStage(p.Err)}
		if jp.Result != nil && jp.Result.Objects == nil {
			res := *jp.Result
			res.Objects = []apply.ObjectResult{}
			jp.Result = &res
		}
		return jp
	})
}
