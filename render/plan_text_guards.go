package render

import (
	"strings"
	"unicode/utf8"

	"github.com/kubeplan/kubeplan/internal/guard"
	"github.com/kubeplan/kubeplan/plan"
)

// guards writes the verdicts of the rules over the plan, denied first,
// then those waiting for an approval, the approved ones and the
// warnings, each with what lets it through, and the closed change
// window:
//
//	Guard rules:
//	  ✗ denied          no-public-lb: updates service/web in shop: LoadBalancer Services are not allowed (kubeplan.yaml:12:5)
//	  ! needs approval  protect-pvc: prunes persistentvolumeclaim/data in shop: pruning a PVC deletes its volume (approve: --approve protect-pvc=REASON)
//	  ✓ approved        mass-prune: the plan: prunes 6 of 10 members (by @alice via review on PR #12: cleanup)
//	  ~ warning         big-change: the plan: 40 changes
//
//	Change window closed: no allow window is active; opens at 2026-12-07T08:00:00+01:00 (override: --outside-window REASON)
//
// Beyond maxGuardLines verdicts of one kind the rest are counted. With
// colour the mark and word are painted as actions are: red refuses,
// yellow waits or warns, green is let through.
func (t *textPlan) guards(p *plan.Plan) {
	g := groupGuards(p.Guards)
	width := 0
	for k := range guardKinds {
		if len(g[k]) > 0 {
			width = max(width, utf8.RuneCountInString(guardWord(k)))
		}
	}
	if width > 0 {
		t.blank()
		t.b.WriteString("Guard rules:\n")
	}
	for k := range guardKinds {
		shown := g[k]
		if len(shown) > maxGuardLines {
			shown = shown[:maxGuardLines]
		}
		for _, v := range shown {
			word := guardWord(k)
			mark := t.paint(guardColor(k), guardSymbol(k)+" "+word)
			t.b.WriteString("  " + mark + strings.Repeat(" ", width-utf8.RuneCountInString(word)+2) + verdictText(v, k, "\n"+strings.Repeat(" ", width+6)) + "\n")
		}
		if n := len(g[k]) - len(shown); n > 0 {
			t.b.WriteString("  ... and " + guardMore(k, n) + " not shown (-o json lists all)\n")
		}
	}
	if p.Window != nil {
		t.blank()
		t.b.WriteString(t.paint(ansiDel, "Change window closed") + strings.TrimPrefix(printable(windowText(p.Window)), "Change window closed") + "\n")
	}
	t.suspended(p)
}

// verdictText is a verdict's line after its mark, escaped: the rule,
// what it is about, its message, where a user's rule is, and what lets
// it through. A message of several lines continues on lines that start
// with cont ("\n    " in the text views, "\n" in an annotation).
func verdictText(v guard.Verdict, k guardKind, cont string) string {
	s := printable(v.Rule + ": " + verdictObject(v))
	if v.Message != "" {
		lines := diffLines(v.Message)
		for i, l := range lines {
			lines[i] = printable(l)
		}
		s += ": " + strings.Join(lines, cont)
	}
	if v.At != "" {
		s += " (" + printable(v.At) + ")"
	}
	switch k {
	case guardPending:
		s += " (approve: " + printable(approveFlag(v.Rule)) + ")"
	case guardApproved:
		s += " (" + printable(approvalText(*v.Approval)) + ")"
	}
	return s
}

// guardColor is the colour of a verdict's mark.
func guardColor(k guardKind) string {
	switch k {
	case guardDenied:
		return ansiDel
	case guardApproved:
		return ansiGreen
	}
	return ansiYellow
}
