package render

import (
	"errors"

	"github.com/kubeplan/kubeplan/run"
)

// A run of one project built from a plain invocation's flags
// (run.Report.Single) is shown exactly as kubeplan showed one plan, one
// apply or one ApplySet's status before projects existed: no project
// header, no table, no total; -o json is the single plan's (apply's,
// status's) document. The run views (RunPlan, RunApply, RunStatus,
// RunApplyMarkdown, RunAnnotations, RunSummary, RunApplySummary) hand
// such a report to the single views, so there is one family of views.
//
// What a single project could not make (no plan, no apply result, no
// status) is not written at all: the command reports the project's error
// as its own, on stderr, as it always did.

// errSingle is a Single report that does not hold exactly one project.
var errSingle = errors.New("render: a single run holds exactly one project")

// single returns the project of a Single report; ok is false when r is a
// run over projects, err set when r is Single without exactly one.
func single(r *run.Report) (p run.ProjectReport, ok bool, err error) {
	if !r.Single {
		return run.ProjectReport{}, false, nil
	}
	if len(r.Projects) != 1 {
		return run.ProjectReport{}, true, errSingle
	}
	return r.Projects[0], true, nil
}

// singleApply is the ApplyReport of a Single apply run.
func singleApply(p run.ProjectReport, o RunOptions) ApplyReport {
	r := applyReportOf(p)
	r.Revision = o.Revision
	return r
}
