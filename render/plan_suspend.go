package render

import (
	"github.com/kubeplan/kubeplan/plan"
)

// suspendFlag is what lets an apply of a suspended set through.
const suspendFlag = "--ignore-suspend REASON"

// suspended writes the set's suspension after the guards, when it has
// one: apply refuses the plan.
//
//	Suspended by alice: "incident 123" since 2026-12-02T10:00Z; apply refuses it (kubeplan resume, or --ignore-suspend REASON)
func (t *textPlan) suspended(p *plan.Plan) {
	if p.Parent == nil || p.Parent.Suspended == nil {
		return
	}
	t.blank()
	t.b.WriteString(t.paint(ansiDel, "Suspended") + " " + printable(SuspensionText(p.Parent.Suspended)) + "; apply refuses it (kubeplan resume, or " + suspendFlag + ")\n")
}

// mdSuspendedLine is the pull-request comment's line for a suspended set:
//
//	**Suspended** by alice: "incident 123" since 2026-12-02T10:00Z: apply refuses this plan (`kubeplan resume`, or `--ignore-suspend REASON`).
func mdSuspendedLine(p *plan.Plan) string {
	if p.Parent == nil || p.Parent.Suspended == nil {
		return ""
	}
	return "\n**Suspended** " + mdText(SuspensionText(p.Parent.Suspended)) + ": apply refuses this plan (" +
		mdCode("kubeplan resume", false) + ", or " + mdCode(suspendFlag, false) + ").\n"
}
