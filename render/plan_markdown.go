package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/kubeplan/kubeplan/plan"
)

// maxCellBytes caps a drift value in the markdown table; the diff below
// the table has the whole value.
const maxCellBytes = 200

// planMarkdown writes the plan as a pull-request comment, the risky parts
// first:
//
//	### kubeplan plan: namespace `store`, ApplySet `configmap/gitops-applyset`, at `1a2b3c4`
//
//	**Plan: 1 to add, 2 to change, 1 to prune, 5 unchanged.**
//
//	> [!CAUTION]                                when anything is pruned, replaced or drifted:
//	> Applying deletes 1 object ... takes back  what applying destroys, in one line
//	**Guards:** 1 denied, 1 needs approval.    the verdicts of the rules over the plan, counted
//	**Change window closed:** ...              when the project's change windows are closed
//	#### Guard rules                            a table: outcome, rule, object, why, how to approve
//	#### Prune                                  a list of the objects applying deletes
//	#### Drift                                  a table: object, field, live, git, set by
//	#### API server warnings                    a table: object, the warning its dry-run returned
//	#### Changes                                one row per create, update, replace, prune
//	#### Kept                                   the fields whose live value the plan keeps
//	<details><summary>~ update deployment.apps/web</summary>   one per create,
//	```diff                                                     update or replace with a diff
//
// A plan with stages (plan.Plan.Stages) has, in place of the Changes
// table, one heading and table per stage in the order apply runs them,
// each saying what the stage waits for (mdStageTables); its prune list is
// in the order apply deletes, after the last wave in reverse stage order,
// and its diffs follow the stages. A plan without stages has no stage
// headings and one Changes table.
//
// Unchanged objects are only counted in the summary line (a SyncFail
// hook, unchanged until a stage fails, is listed under its stage). Table cells
// escape |, backticks, < and the like; a diff is fenced with more backticks
// than it contains in a row, so it cannot end its block.
//
// The output never exceeds opts.MaxBytes. When the whole plan is larger,
// diff blocks are left out from the end first; when even the tables do not
// fit, their rows are cut from the end (the change table before the drift
// table and the prune list), each cut table says how many rows it lost,
// and a note under the summary says what was left out and where the full
// plan is (opts.SummaryHint, a link when opts.SummaryURL is set).
func planMarkdown(w io.Writer, p *plan.Plan, opts PlanOptions) error {
	l := planMarkdownLayout(p, opts)
	_, err := io.WriteString(w, mdFit(l.head, l.secs, l.limit, l.note))
	return err
}

// mdLayout is what mdFit lays out: the head, the sections that lose rows,
// the byte limit and what the note says.
type mdLayout struct {
	head  string
	secs  []*mdSection
	limit int
	note  mdNoteText
}

// fits reports whether mdFit can keep the head and the note whole, cutting
// only rows: the longest note (every row left out) fits beside the head.
func (l mdLayout) fits() bool {
	return len(l.head)+len(mdNote(l.secs, l.note, true)) <= l.limit
}

// planMarkdownLayout is planMarkdown's layout, before it is fitted.
func planMarkdownLayout(p *plan.Plan, opts PlanOptions) mdLayout {
	limit, why := mdLimit(opts.MaxBytes, opts.LimitName)
	hint := mdHint(opts.SummaryHint, opts.SummaryURL)
	cs := sortedChanges(p)
	var secs []*mdSection
	if len(p.Stages) > 0 {
		v := stagedLayout(p, cs)
		secs = append(secs, mdGuardTable(p), mdStagedPruneList(p, v), mdDriftTable(p, cs), mdAPIWarningTable(p, cs))
		secs = append(secs, mdStageTables(p, v)...)
		secs = append(secs, mdKeptList(p, cs), mdDiffs(p, v.diffOrder()))
	} else {
		secs = []*mdSection{mdGuardTable(p), mdPruneList(p, cs), mdDriftTable(p, cs), mdAPIWarningTable(p, cs), mdChangeTable(p, cs), mdKeptList(p, cs), mdDiffs(p, cs)}
	}
	return mdLayout{head: mdHead(p), secs: secs, limit: limit, note: mdNoteText{why: mdText(why), what: "plan", where: hint}}
}

// mdLimit is a comment's byte limit, maxBytes or DefaultMaxBytes when it
// is 0 or less, and what the note calls it (plain text): name, or
// "GitHub's 65,536-character limit".
func mdLimit(maxBytes int, name string) (int, string) {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	if name == "" {
		name = "GitHub's " + thousands(maxBytes) + "-character limit"
	}
	return maxBytes, name
}

// mdHint says where the full text is, as markdown: hint (default "the
// job summary"), a link to url when there is one.
func mdHint(hint, url string) string {
	if hint == "" {
		hint = defaultSummaryHint
	}
	hint = mdText(hint)
	if url != "" {
		hint = "[" + hint + "](" + mdURL(url) + ")"
	}
	return hint
}

func mdHead(p *plan.Plan) string {
	applySet, rev := "", ""
	if p.Parent != nil {
		applySet = p.Parent.Ref.String()
	}
	if p.Revision != "" {
		rev = shortSHA(p.Revision)
	}
	h := mdTitle("plan", p.Namespace, applySet, rev)
	sum := p.Summary()
	h += "\n\n**" + sum.String() + "**\n"
	if !p.HasChanges() {
		h += "\nNo changes. The cluster matches the manifests.\n"
	}
	drifted := 0
	for _, c := range p.Changes {
		drifted += len(c.Drift)
	}
	var risks []string
	if sum.Prune > 0 {
		risks = append(risks, fmt.Sprintf("**deletes %s %s** from the cluster (see Prune)", thousands(sum.Prune), pluralWord(sum.Prune, "object")))
	}
	if sum.Replace > 0 {
		risks = append(risks, fmt.Sprintf("**deletes and recreates %s %s** whose immutable fields change (see Changes)", thousands(sum.Replace), pluralWord(sum.Replace, "object")))
	}
	if owned := ownedCount(p); owned > 0 {
		risks = append(risks, fmt.Sprintf("**takes over %s %s owned by another ApplySet or tool** (needs --adopt; see Changes)", thousands(owned), pluralWord(owned, "object")))
	}
	if drifted > 0 {
		risks = append(risks, fmt.Sprintf("**takes back %s %s changed in the cluster** by hand or by another tool (see Drift)", thousands(drifted), pluralWord(drifted, "field")))
	}
	if len(risks) > 0 {
		h += "\n> [!CAUTION]\n> Applying " + joinAnd(risks) + ".\n"
	}
	h += mdStageLine(p)
	h += mdGuardLine(p)
	if len(p.Warnings) > 0 {
		h += "\n> [!WARNING]\n"
		for _, w := range p.Warnings {
			line := mdText(w.Message)
			if s := w.Source.String(); s != "" {
				line += " (" + mdCode(s, false) + ")"
			}
			h += "> - " + line + "\n"
		}
	}
	return h
}

// joinAnd joins "a", "b", "c" as "a, b and c".
func joinAnd(parts []string) string {
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// mdChangeTable has one row per change; objects outside the plan's
// namespace say where they are ("in `other`"), and updates that take drift
// back say so.
func mdChangeTable(p *plan.Plan, cs []plan.Change) *mdSection {
	s := &mdSection{one: "table row", many: "table rows", tail: true,
		intro: "\n#### Changes\n\n| | object | source |\n|---|---|---|\n"}
	for _, c := range cs {
		if c.Action == plan.Unchanged {
			continue
		}
		s.rows = append(s.rows, mdChangeRow(p, c))
	}
	return s
}

// mdChangeRow is a change's row of a change table: action, object, source.
func mdChangeRow(p *plan.Plan, c plan.Change) string {
	src := ""
	if c.Source.File != "" {
		src = mdCode(fmt.Sprintf("%s:%d", c.Source.File, c.Source.Line), true)
	}
	action := mdAction(c)
	if c.Owner != "" {
		action += ", ⚠️ owned by " + mdText(c.Owner)
	}
	if r := rollReason(c); r != "" {
		action += ", 🔁 " + mdText(r)
	}
	return fmt.Sprintf("| %s | %s | %s |\n", action, mdObject(p, c.Ref, true), src)
}

func mdAction(c plan.Change) string {
	switch c.Action {
	case plan.Create:
		if c.AfterCRD {
			return "➕ create (after " + mdText(strings.ReplaceAll(c.After(), "CustomResourceDefinition", "CRD")) + ")"
		}
		return "➕ create"
	case plan.Update:
		if len(c.Drift) > 0 {
			return "🔄 update, ⚠️ drift"
		}
		return "🔄 update"
	case plan.Replace:
		return "♻️ replace (" + mdText(c.Reason) + ")"
	case plan.Prune:
		return "🗑️ prune"
	case plan.Release:
		return "🏷️ release (" + mdText(c.Reason) + ")"
	case plan.Unchanged: // a SyncFail hook, under its stage
		if c.Reason != "" {
			return "⏸️ unchanged (" + mdText(c.Reason) + ")"
		}
		return "⏸️ unchanged"
	}
	return "❔ " + mdText(string(c.Action))
}

func mdDriftTable(p *plan.Plan, cs []plan.Change) *mdSection {
	s := &mdSection{one: "drift row", many: "drift rows", tail: true,
		intro: "\n#### Drift\n\nChanged in the cluster by someone else; applying takes these back.\n\n" +
			"| object | field | live | git | set by |\n|---|---|---|---|---|\n"}
	for _, c := range cs {
		for _, d := range c.Drift {
			s.rows = append(s.rows, fmt.Sprintf("| %s | %s | %s | %s | %s |\n",
				mdObject(p, c.Ref, true), mdCode(d.Field, true), mdCode(mdShort(d.Live), true),
				mdCode(mdShort(d.Want), true), mdText(d.Manager)))
		}
	}
	return s
}

func mdPruneList(p *plan.Plan, cs []plan.Change) *mdSection {
	s := &mdSection{one: "prune-list entry", many: "prune-list entries", tail: true,
		intro: "\n#### Prune\n\nThese objects left the manifests; applying deletes them from the cluster:\n\n"}
	for _, c := range cs {
		if c.Action != plan.Prune {
			continue
		}
		s.rows = append(s.rows, "- "+mdObject(p, c.Ref, false)+"\n")
	}
	return s
}

func mdDiffs(p *plan.Plan, cs []plan.Change) *mdSection {
	s := &mdSection{one: "diff", many: "diffs"}
	for _, c := range cs {
		if c.Diff == "" || c.Action != plan.Create && c.Action != plan.Update && c.Action != plan.Replace {
			continue
		}
		var b strings.Builder
		title := actionSymbol(c.Action) + " " + string(c.Action) + " " + changeLabel(p, c.Ref)
		if c.Stage != "" {
			title += " (" + c.Stage + ")"
		}
		fmt.Fprintf(&b, "\n<details><summary>%s</summary>\n\n", mdHTML(title))
		lines := diffLines(c.Diff)
		fence := mdFence(lines)
		b.WriteString(fence + "diff\n")
		for _, l := range lines {
			b.WriteString(printable(l) + "\n")
		}
		b.WriteString(fence + "\n\n</details>\n")
		s.rows = append(s.rows, b.String())
	}
	return s
}

// ownedCount is how many objects the plan takes over from another owner.
func ownedCount(p *plan.Plan) int {
	n := 0
	for _, c := range p.Changes {
		if c.Owner != "" {
			n++
		}
	}
	return n
}
