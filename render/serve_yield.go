package render

import (
	"fmt"
	"strings"

	"github.com/kubeplan/kubeplan/notify"
)

// YieldNote is what kubeplan serve says, once, of a field it took back
// in runs runs in a row, set each time by manager: the yield: rule to add
// to kubeplan.yaml, and the alternative of fixing the other controller.
// field is as the plan names it (spec.replicas).
func YieldNote(object, field, manager string, runs int, rule string) string {
	return fmt.Sprintf("%s of %s was set by %s and taken back in %d runs in a row; "+
		"to leave it to %s, add to kubeplan.yaml: %s (docs/yield.md); "+
		"or stop %s from writing it",
		strings.TrimPrefix(field, "."), object, manager, runs, manager, rule, manager)
}

// yieldSummary is a yield-suggested notification's line:
//
//	kubeplan: project store (revision 0123456, namespace store): spec.replicas of deployment.apps/web was set by ... (and 1 more)
func yieldSummary(e notify.Event) string {
	s := "kubeplan: project " + e.Project
	if where := notifyWhere(e); where != "" {
		s += " (" + where + ")"
	}
	if len(e.Hints) > 0 {
		s += ": " + e.Hints[0]
	}
	if len(e.Hints) > 1 {
		s += fmt.Sprintf(" (and %d more)", len(e.Hints)-1)
	}
	return s
}
