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
//
// verb is what was done ("planned", "applied").
func RunProgress(w io.Writer, verb string, pr run.ProjectReport) error {
	what := string(pr.Status)
	if pr.Plan != nil && pr.Status == run.Changes {
		what = strings.TrimSuffix(pr.Plan.Summary().String(), ".")
	}
	_, err := fmt.Fprintf(w, "kubeplan: %s %s: %s\n", verb, pr.Project.Name, what)
	return err
}
