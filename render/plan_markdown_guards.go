package render

import (
	"strings"

	"github.com/kubeplan/kubeplan/internal/guard"
	"github.com/kubeplan/kubeplan/plan"
)

// mdGuardLine is the line of the head that counts the verdicts of the
// rules over the plan and says whether apply refuses it, and the line of
// a closed change window, so that a comment whose tables were cut still
// says both; "" when the plan has neither:
//
//	**Guards:** 1 denied, 2 need approval, 1 warning; apply refuses this plan until none is denied and each is approved.
//	**Change window closed:** no allow window is active; opens at 2026-12-07T08:00:00+01:00 (override: `--outside-window REASON`).
func mdGuardLine(p *plan.Plan) string {
	var h string
	g := groupGuards(p.Guards)
	if c := g.count(); c != "" {
		h = "\n**Guards:** " + c
		switch {
		case len(g[guardDenied]) > 0:
			h += "; apply refuses this plan while a rule denies it"
		case len(g[guardPending]) > 0:
			h += "; apply refuses this plan until each is approved (see Guard rules)"
		}
		h += ".\n"
	}
	if w := p.Window; w != nil {
		line := "\n**Change window closed:**"
		if w.Reason != "" {
			line += " " + mdText(w.Reason) + ";"
		}
		h += line + " " + mdText(windowOpens(w.Next)) + " (override: " + mdCode(overrideFlag, false) + ").\n"
	}
	h += mdSuspendedLine(p)
	return h
}

// mdGuardTable has one row per verdict, denied first, then those waiting
// for an approval, the approved ones and the warnings:
//
//	| outcome | rule | object | why | how to approve |
//	|---|---|---|---|---|
//	| ⛔ denied | `no-public-lb` | update `service/web` in `shop` | LoadBalancer Services are not allowed | cannot be approved |
//	| ✋ needs approval | `protect-pvc` (built-in) | prune `persistentvolumeclaim/data` in `shop` | ... | `--approve protect-pvc=REASON` |
//	| ✅ approved | `mass-prune` (built-in) | the plan | ... | approved by @alice via review on PR #12: cleanup |
//
// Every cell is escaped as cluster text is; rows are cut from the end to
// fit, as the other tables' are.
func mdGuardTable(p *plan.Plan) *mdSection {
	s := &mdSection{one: "guard row", many: "guard rows", tail: true,
		intro: "\n#### Guard rules\n\n| outcome | rule | object | why | how to approve |\n|---|---|---|---|---|\n"}
	g := groupGuards(p.Guards)
	for k := range guardKinds {
		for _, v := range g[k] {
			s.rows = append(s.rows, mdGuardRow(v, k))
		}
	}
	return s
}

func mdGuardRow(v guard.Verdict, k guardKind) string {
	rule := mdCode(v.Rule, true)
	switch {
	case v.Builtin:
		rule += " (built-in)"
	case v.At != "":
		rule += " at " + mdCode(v.At, true)
	}
	object := "the plan"
	if v.Object != "" {
		object = mdCode(v.Object, true)
		if v.Action != "" {
			object = mdText(v.Action) + " " + object
		}
		if v.Namespace != "" {
			object += " in " + mdCode(v.Namespace, true)
		}
	}
	how := ""
	switch k {
	case guardDenied:
		how = "cannot be approved"
	case guardPending:
		how = mdCode(approveFlag(v.Rule), true)
	case guardApproved:
		how = "approved " + mdText(approvalText(*v.Approval))
	}
	why := strings.Join(mdLines(v.Message), "<br>")
	return "| " + mdGuardOutcome(k) + " | " + rule + " | " + object + " | " + why + " | " + how + " |\n"
}

func mdGuardOutcome(k guardKind) string {
	switch k {
	case guardDenied:
		return "⛔ denied"
	case guardPending:
		return "✋ needs approval"
	case guardApproved:
		return "✅ approved"
	}
	return "⚠️ warning"
}
