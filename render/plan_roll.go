package render

import (
	"strings"

	"github.com/kubeplan/kubeplan/plan"
)

// rollReason says why a change's pods roll (plan.Change.RollsFor):
// "will roll: configmap/settings changed", "will roll: configmap/a and
// secret/b changed"; "" when they do not roll for changed config.
func rollReason(c plan.Change) string {
	if len(c.RollsFor) == 0 {
		return ""
	}
	return "will roll: " + joinAnd(c.RollsFor) + " changed"
}

// rollSentence is rollReason with the object it is about:
// "deployment.apps/web will roll: configmap/settings changed".
func rollSentence(p *plan.Plan, c plan.Change) string {
	r := rollReason(c)
	if r == "" {
		return ""
	}
	return strings.TrimSpace(changeLabel(p, c.Ref) + " " + r)
}

// rolls writes one line per change whose pods roll for changed config,
// in change order:
//
//	Rolls (the config their pods read changed):
//	  deployment.apps/web will roll: configmap/settings changed
func (t *textPlan) rolls(p *plan.Plan, cs []plan.Change) {
	first := true
	for _, c := range cs {
		s := rollSentence(p, c)
		if s == "" {
			continue
		}
		if first {
			t.blank()
			t.b.WriteString("Rolls (the config their pods read changed):\n")
			first = false
		}
		t.b.WriteString("  " + printable(s) + "\n")
	}
}
