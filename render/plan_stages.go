package render

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kubeplan/kubeplan/plan"
)

// The stages of a plan as the views show them (plan.Plan.Stages, see
// docs/ordering.md): every change under the stage it is written in, in
// the order apply runs the stages, then the SyncFail stages, then the
// prunes. A plan without stages has no stage headings.

// maxWaitsFor is how many objects a "waits for" line names; the rest are
// counted ("and 3 more").
const maxWaitsFor = 6

// stageGroup is one stage of a plan and the changes it writes.
type stageGroup struct {
	stage plan.Stage
	// n is the stage's place among the stages a run goes through (from
	// 1), 0 for a SyncFail stage (OnFail).
	n int
	// changes are the stage's members that apply writes, in
	// sortedChanges order; for a SyncFail stage, all its members (they are
	// planned unchanged, and run only when a stage fails).
	changes []plan.Change
}

// stagedView is a plan with stages laid out for the views.
type stagedView struct {
	groups []stageGroup
	runs   int // how many stages a run goes through (not OnFail)
	// loose are the changes apply writes that no stage names (none, as
	// the planner places every object; shown rather than lost).
	loose []plan.Change
	// prunes are the prunes and releases, in the plan's order: the
	// reverse of the stages, as apply runs them after the last wave.
	prunes []plan.Change
	// unchanged are the unchanged changes no SyncFail stage lists.
	unchanged []plan.Change
}

// stagedLayout lays out p (which has stages) from cs, its sortedChanges.
func stagedLayout(p *plan.Plan, cs []plan.Change) stagedView {
	var v stagedView
	at := map[plan.Ref][]int{} // where each object's changes are in cs
	for i, c := range cs {
		if c.Action != plan.Prune && c.Action != plan.Release {
			at[c.Ref] = append(at[c.Ref], i)
		}
	}
	placed := map[plan.Ref]bool{}
	onFail := map[plan.Ref]bool{}
	for _, s := range p.Stages {
		var idx []int
		for _, m := range s.Members {
			idx = append(idx, at[m]...)
			placed[m] = true
			if s.OnFail {
				onFail[m] = true
			}
		}
		slices.Sort(idx)
		idx = slices.Compact(idx) // a member listed twice
		g := stageGroup{stage: s}
		if !s.OnFail {
			v.runs++
			g.n = v.runs
		}
		for _, i := range idx {
			if c := cs[i]; s.OnFail || c.Action != plan.Unchanged {
				g.changes = append(g.changes, c)
			}
		}
		v.groups = append(v.groups, g)
	}
	for _, c := range cs {
		switch {
		case c.Action == plan.Unchanged:
			if !onFail[c.Ref] {
				v.unchanged = append(v.unchanged, c)
			}
		case c.Action == plan.Prune || c.Action == plan.Release:
		case !placed[c.Ref]:
			v.loose = append(v.loose, c)
		}
	}
	for _, c := range p.Changes {
		if c.Action == plan.Prune || c.Action == plan.Release {
			v.prunes = append(v.prunes, c)
		}
	}
	return v
}

// stageTitle is a stage's heading, plain text: "Stage 2 of 5: wave -1",
// "If a stage fails: SyncFail hooks".
func (v stagedView) stageTitle(g stageGroup) string {
	if g.stage.OnFail {
		return "If a stage fails: " + g.stage.Name
	}
	return fmt.Sprintf("Stage %d of %d: %s", g.n, v.runs, g.stage.Name)
}

// pruneTitle is the heading of the prunes of a staged plan.
const pruneTitle = "Prune, after the last wave, in reverse stage order"

// waitsFor says what a stage waits for before the next one starts, each
// entry formatted by item ("job.batch/migrate complete"), at most
// maxWaitsFor of them and a count of the rest; "writes nothing" when the
// stage writes nothing.
func waitsFor(s plan.Stage, item func(ref, what string) string) string {
	if len(s.WaitsFor) == 0 {
		return "writes nothing"
	}
	shown := s.WaitsFor
	if len(shown) > maxWaitsFor {
		shown = shown[:maxWaitsFor]
	}
	parts := make([]string, len(shown))
	for i, w := range shown {
		ref, what, _ := strings.Cut(w, " ")
		parts[i] = item(ref, what)
	}
	out := "waits for: " + strings.Join(parts, ", ")
	if n := len(s.WaitsFor) - len(shown); n > 0 {
		out += fmt.Sprintf(" and %d more", n)
	}
	return out
}

// stageOfPrune says which stage a pruned object was in: "was in wave 1".
func stageOfPrune(c plan.Change) string {
	if c.Stage == "" {
		return ""
	}
	return "was in " + c.Stage
}
