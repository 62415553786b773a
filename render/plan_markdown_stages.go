package render

import (
	"fmt"
	"strings"

	"github.com/kubeplan/kubeplan/plan"
)

// mdStageTables are the markdown of a plan's stages, in the order apply
// runs them, one heading and table each, in place of the one change
// table of a plan without stages:
//
//	#### Stage 1 of 3: PreSync hooks
//
//	Waits for: `job.batch/migrate` complete.
//
//	| | object | source |
//	|---|---|---|
//	| ➕ create | `job.batch/migrate` | `app/migrate.yaml:1` |
//
//	#### Stage 2 of 3: wave -1
//
//	Writes nothing.
//
//	#### If a stage fails: SyncFail hooks
//
//	Runs only when a stage fails. Waits for: `job.batch/cleanup` complete.
//
// A stage that writes nothing is a heading and that line. Changes no
// stage names (the planner places every one) follow under "In no stage",
// then the prunes and releases, in the order apply runs them after the
// last wave, each with the stage it was in.
// The rows of each table are cut from its end to fit the comment, as the
// change table's are.
func mdStageTables(p *plan.Plan, v stagedView) []*mdSection {
	const table = "| | object | source |\n|---|---|---|\n"
	var secs []*mdSection
	for _, g := range v.groups {
		line := waitsFor(g.stage, func(ref, what string) string { return mdCode(ref, false) + " " + mdText(what) })
		line = strings.ToUpper(line[:1]) + line[1:] + "."
		if g.stage.OnFail {
			line = "Runs only when a stage fails. " + line
		}
		s := &mdSection{one: "table row", many: "table rows", tail: true,
			intro: "\n#### " + mdText(v.stageTitle(g)) + "\n\n" + line + "\n"}
		if len(g.changes) == 0 {
			s.bare = true
		} else {
			s.intro += "\n" + table
		}
		for _, c := range g.changes {
			s.rows = append(s.rows, mdChangeRow(p, c))
		}
		secs = append(secs, s)
	}
	if len(v.loose) > 0 {
		s := &mdSection{one: "table row", many: "table rows", tail: true, intro: "\n#### In no stage\n\n" + table}
		for _, c := range v.loose {
			s.rows = append(s.rows, mdChangeRow(p, c))
		}
		secs = append(secs, s)
	}
	if len(v.prunes) > 0 {
		s := &mdSection{one: "table row", many: "table rows", tail: true,
			intro: "\n#### " + pruneTitle + "\n\n| | object | was in |\n|---|---|---|\n"}
		for _, c := range v.prunes {
			s.rows = append(s.rows, "| "+mdAction(c)+" | "+mdObject(p, c.Ref, true)+" | "+mdText(c.Stage)+" |\n")
		}
		secs = append(secs, s)
	}
	return secs
}

// mdStagedPruneList is the prune list of a plan with stages: the objects
// in the order apply deletes them, after the last wave and in reverse
// stage order, each with the stage it was in.
func mdStagedPruneList(p *plan.Plan, v stagedView) *mdSection {
	s := &mdSection{one: "prune-list entry", many: "prune-list entries", tail: true,
		intro: "\n#### Prune\n\nThese objects left the manifests; applying deletes them from the cluster, " +
			"after the last wave, in reverse stage order:\n\n"}
	for _, c := range v.prunes {
		if c.Action != plan.Prune {
			continue
		}
		row := "- " + mdObject(p, c.Ref, false)
		if n := stageOfPrune(c); n != "" {
			row += " (" + mdText(n) + ")"
		}
		s.rows = append(s.rows, row+"\n")
	}
	return s
}

// diffOrder is the changes in the order of their stages, each once (a
// hook of two stages where it is first written): the order of the diffs.
func (v stagedView) diffOrder() []plan.Change {
	var out []plan.Change
	seen := map[plan.Ref]bool{}
	add := func(cs []plan.Change) {
		for _, c := range cs {
			if !seen[c.Ref] {
				seen[c.Ref] = true
				out = append(out, c)
			}
		}
	}
	for _, g := range v.groups {
		add(g.changes)
	}
	add(v.loose)
	return out
}

// maxStageLine is how many stages the head's stage line names.
const maxStageLine = 20

// mdStageLine is the line of the head that names a plan's stages in the
// order apply runs them, so that a comment whose stage tables were cut
// still says what runs when; "" for a plan without stages:
//
//	**Stages:** PreSync hooks → wave 0 → PostSync hooks; if a stage fails: SyncFail hooks.
func mdStageLine(p *plan.Plan) string {
	if len(p.Stages) == 0 {
		return ""
	}
	var runs, onFail []string
	for _, s := range p.Stages {
		if s.OnFail {
			onFail = append(onFail, mdText(s.Name))
		} else {
			runs = append(runs, mdText(s.Name))
		}
	}
	more := ""
	if n := len(runs) - maxStageLine; n > 0 {
		runs, more = runs[:maxStageLine], fmt.Sprintf(" → …and %d more", n)
	}
	line := "\n**Stages:** " + strings.Join(runs, " → ") + more
	if len(onFail) > 0 {
		line += "; if a stage fails: " + strings.Join(onFail, ", ")
	}
	return line + ".\n"
}
