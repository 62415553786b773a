package render

import (
	"github.com/kubeplan/kubeplan/plan"
)

// stages writes the changes of a plan with stages under their stages, in
// the order apply runs them, and returns the unchanged objects left for
// the list below:
//
//	Stage 1 of 3: PreSync hooks
//	  waits for: job.batch/migrate complete
//
//	+ create job.batch/migrate (manifests/migrate.yaml:1:1) (PreSync hook)
//	    ...
//
//	Stage 2 of 3: wave -1
//	  writes nothing
//
//	Stage 3 of 3: wave 0
//	  waits for: deployment.apps/web rolled out, service/web ready
//	...
//	If a stage fails: SyncFail hooks
//	  waits for: job.batch/cleanup complete
//
//	  unchanged job.batch/cleanup (manifests/cleanup.yaml:1:1) (SyncFail hook: runs only when a stage fails)
//
//	Prune, after the last wave, in reverse stage order:
//
//	- prune configmap/old (was in wave 1)
//
// A hook of two stages is listed under each, its diff under the first. The SyncFail stages list
// their hooks, which the plan has unchanged: they run only when a stage
// fails. The prunes keep the plan's order, the reverse of the stages.
func (t *textPlan) stages(p *plan.Plan, cs []plan.Change) (unchanged []plan.Change) {
	v := stagedLayout(p, cs)
	first := map[plan.Ref]string{} // the first stage that writes each object
	for _, g := range v.groups {
		for _, c := range g.changes {
			if _, ok := first[c.Ref]; !ok && !g.stage.OnFail {
				first[c.Ref] = g.stage.Name
			}
		}
	}
	for _, g := range v.groups {
		t.blank()
		t.b.WriteString(t.paint(ansiBold, printable(v.stageTitle(g))) + "\n")
		t.b.WriteString("  " + printable(waitsFor(g.stage, func(ref, what string) string { return ref + " " + what })) + "\n")
		if g.stage.OnFail {
			if len(g.changes) > 0 {
				t.blank()
			}
			for _, c := range g.changes {
				t.header(p, c, nil)
			}
			continue
		}
		t.changes(p, repeated(g, first), func(c plan.Change) string {
			if f := first[c.Ref]; f != g.stage.Name {
				return "diff under " + f
			}
			return ""
		})
	}
	if len(v.loose) > 0 {
		t.blank()
		t.b.WriteString(t.paint(ansiBold, "In no stage:") + "\n")
		t.changes(p, v.loose, nil)
	}
	if len(v.prunes) > 0 {
		t.blank()
		t.b.WriteString(t.paint(ansiBold, pruneTitle+":") + "\n")
		t.changes(p, v.prunes, stageOfPrune)
	}
	return v.unchanged
}

// repeated is g's changes, those a stage before g writes without their
// diff: it is shown under that stage.
func repeated(g stageGroup, first map[plan.Ref]string) []plan.Change {
	out := make([]plan.Change, len(g.changes))
	for i, c := range g.changes {
		if first[c.Ref] != g.stage.Name {
			c.Diff = ""
		}
		out[i] = c
	}
	return out
}
