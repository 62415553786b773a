package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/kubeplan/kubeplan/run"
)

// RunProgress writes the line kubeplan prints on stderr, in a terminal,
// as each project of a run is done: its status, or for a plan with
// changes the plan's summary without the full stop:
//
//	kubeplan: planned shop-web-prod: Plan: 1 to add, 0 to change, 0 to prune, 3 unchanged
//	kubeplan: applied shop-api-prod: failed
//	kubeplan: planned shop-db-prod: Plan: 0 to add, 0 to change, 1 to prune, 2 unchanged; guards: 1 needs approval
//	kubeplan: applied shop-db-prod: failed (refused by guards)
//
// verb is what was done ("planned", "applied").
func RunProgress(w io.Writer, verb string, pr run.ProjectReport) error {
	what := string(pr.Status)
	if pr.Plan != nil && pr.Status == run.Changes {
		what = strings.TrimSuffix(pr.Plan.Summary().String(), ".")
	}
	if t := RunGuards(&run.Report{Projects: []run.ProjectReport{pr}}); t.Refused > 0 {
		what += " (refused by guards)"
	} else if pr.Plan != nil {
		if c := groupGuards(pr.Plan.Guards).count(); c != "" {
			what += "; guards: " + c
		}
	}
	_, err := fmt.Fprintf(w, "kubeplan: %s %s: %s\n", verb, pr.Project.Name, what)
	return err
}
