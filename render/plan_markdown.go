package render

import (
	"fmt"
	"html"
	"io"
	"strings"

	"github.com/kubeplan/kubeplan/plan"
)

// maxCellBytes caps a drift value in the markdown table; the diff below
// the table has the whole value.
const maxCellBytes = 200

// planMarkdown writes the plan as a pull-request comment:
//
//	### kubeplan plan: namespace `store`
//
//	**Plan: 1 to add, 2 to change, 1 to prune, 5 unchanged.**
//
//	| | object | namespace | source |          one row per create, update, prune
//	#### Drift                                  a table: object, field, live, git, set by
//	#### Prune                                  a list of the objects applying deletes
//	<details><summary>~ update deployment.apps/web</summary>   one per create or
//	```diff                                                     update with a diff
//
// Table cells escape |, backticks, < and the like; a diff is fenced with
// more backticks than it contains in a row, so it cannot end its block.
//
// The output never exceeds opts.MaxBytes. When the whole plan is larger,
// diff blocks are left out from the end first; when even the tables do not
// fit, their rows are cut from the end, each cut table says how many rows
// it lost, and a note under the summary says what was left out and where
// the full plan is (opts.SummaryHint).
func planMarkdown(w io.Writer, p *plan.Plan, opts PlanOptions) error {
	limit := opts.MaxBytes
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	hint := opts.SummaryHint
	if hint == "" {
		hint = defaultSummaryHint
	}
	cs := sortedChanges(p)
	secs := []*mdSection{mdChangeTable(cs), mdDriftTable(p, cs), mdPruneList(cs), mdDiffs(p, cs)}
	_, err := io.WriteString(w, mdFit(mdHead(p), secs, limit, hint))
	return err
}

// mdSection is a part of the comment that can lose rows from its end.
type mdSection struct {
	one, many string   // what a row is, for the note: "diff", "diffs"
	intro     string   // written before the first row; starts with a blank line
	rows      []string // each ends in a newline
	tail      bool     // when cut, say so under the rows
	kept      int      // rows written
	shown     bool     // intro written
}

// more is the line under a cut table.
func (s *mdSection) more(n int) string {
	return fmt.Sprintf("\n_…and %s more not shown._\n", thousands(n))
}

func (s *mdSection) size() int {
	n := len(s.intro)
	for _, r := range s.rows {
		n += len(r)
	}
	return n
}

// mdFit lays out head, the note and as many rows of each section, in
// order, as fit in limit bytes.
func mdFit(head string, secs []*mdSection, limit int, hint string) string {
	total := len(head)
	for _, s := range secs {
		s.kept, s.shown = len(s.rows), len(s.rows) > 0
		if s.shown {
			total += s.size()
		}
	}
	if total <= limit {
		return mdAssemble(head, "", secs)
	}
	// First reserve room for the longest note (every row left out), which
	// always fits what is kept; then try again with the room the actual
	// note takes, and keep that layout only if it still fits.
	mdFill(secs, limit-len(head)-len(mdNote(secs, limit, hint, true)))
	out := mdAssemble(head, mdNote(secs, limit, hint, false), secs)
	mdFill(secs, limit-len(head)-len(mdNote(secs, limit, hint, false)))
	if again := mdAssemble(head, mdNote(secs, limit, hint, false), secs); len(again) <= limit {
		out = again
	}
	// Cutting bytes only happens when even the head and note do not fit.
	return cutUTF8(out, limit)
}

// mdFill keeps, section by section, the longest prefix of rows that fits
// in budget bytes; a cut section reserves room for its "…and N more" line.
func mdFill(secs []*mdSection, budget int) {
	for _, s := range secs {
		s.kept, s.shown = 0, false
		if len(s.rows) == 0 {
			continue
		}
		if n := s.size(); n <= budget {
			s.kept, s.shown = len(s.rows), true
			budget -= n
			continue
		}
		left := budget - len(s.intro)
		if s.tail {
			left -= len(s.more(len(s.rows)))
		}
		k := 0
		for k < len(s.rows) && len(s.rows[k]) <= left {
			left -= len(s.rows[k])
			k++
		}
		if left < 0 || k == 0 && !s.tail {
			continue
		}
		s.kept, s.shown, budget = k, true, left
	}
}

func mdAssemble(head, note string, secs []*mdSection) string {
	var b strings.Builder
	b.WriteString(head)
	b.WriteString(note)
	for _, s := range secs {
		if !s.shown {
			continue
		}
		b.WriteString(s.intro)
		for _, r := range s.rows[:s.kept] {
			b.WriteString(r)
		}
		if s.tail && s.kept < len(s.rows) {
			b.WriteString(s.more(len(s.rows) - s.kept))
		}
	}
	return b.String()
}

// mdNote says what was left out:
//
//	> ⚠️ 3 diffs were left out to stay under GitHub's 65,536-character limit; the full plan is in the job summary.
//
// With worst, it is the longest the note can be: every row left out.
func mdNote(secs []*mdSection, limit int, hint string, worst bool) string {
	var parts []string
	total := 0
	for _, s := range secs {
		n := len(s.rows) - s.kept
		if worst {
			n = len(s.rows)
		}
		if n == 0 {
			continue
		}
		total += n
		noun := s.many
		if n == 1 && !worst {
			noun = s.one
		}
		parts = append(parts, thousands(n)+" "+noun)
	}
	if len(parts) == 0 {
		return ""
	}
	list := parts[len(parts)-1]
	if len(parts) > 1 {
		list = strings.Join(parts[:len(parts)-1], ", ") + " and " + list
	}
	verb := "were"
	if total == 1 && !worst {
		verb = "was"
	}
	return fmt.Sprintf("\n> ⚠️ %s %s left out to stay under GitHub's %s-character limit; the full plan is in %s.\n",
		list, verb, thousands(limit), mdText(hint))
}

func mdHead(p *plan.Plan) string {
	h := "### kubeplan plan"
	if p.Namespace != "" {
		h += ": namespace " + mdCode(p.Namespace, false)
	}
	h += "\n\n**" + p.Summary().String() + "**\n"
	if !p.HasChanges() {
		h += "\nNo changes. The cluster matches the manifests.\n"
	}
	return h
}

func mdChangeTable(cs []plan.Change) *mdSection {
	s := &mdSection{one: "table row", many: "table rows", tail: true,
		intro: "\n| | object | namespace | source |\n|---|---|---|---|\n"}
	for _, c := range cs {
		if c.Action == plan.Unchanged {
			continue
		}
		src := ""
		if c.Source.File != "" {
			src = mdCode(fmt.Sprintf("%s:%d", c.Source.File, c.Source.Line), true)
		}
		s.rows = append(s.rows, fmt.Sprintf("| %s | %s | %s | %s |\n",
			mdAction(c), mdCode(c.Ref.String(), true), mdCode(c.Ref.Namespace, true), src))
	}
	return s
}

func mdAction(c plan.Change) string {
	switch c.Action {
	case plan.Create:
		if c.AfterCRD {
			return "➕ create (after its CRD)"
		}
		return "➕ create"
	case plan.Update:
		return "🔄 update"
	case plan.Prune:
		return "🗑️ prune"
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

func mdPruneList(cs []plan.Change) *mdSection {
	s := &mdSection{one: "prune-list entry", many: "prune-list entries", tail: true,
		intro: "\n#### Prune\n\nThese objects left the manifests; applying deletes them from the cluster:\n\n"}
	for _, c := range cs {
		if c.Action != plan.Prune {
			continue
		}
		row := "- " + mdCode(c.Ref.String(), false)
		if c.Ref.Namespace != "" {
			row += " in " + mdCode(c.Ref.Namespace, false)
		}
		s.rows = append(s.rows, row+"\n")
	}
	return s
}

func mdDiffs(p *plan.Plan, cs []plan.Change) *mdSection {
	s := &mdSection{one: "diff", many: "diffs"}
	for _, c := range cs {
		if c.Diff == "" || c.Action != plan.Create && c.Action != plan.Update {
			continue
		}
		var b strings.Builder
		title := actionSymbol(c.Action) + " " + string(c.Action) + " " + changeLabel(p, c.Ref)
		fmt.Fprintf(&b, "\n<details><summary>%s</summary>\n\n", html.EscapeString(printable(title)))
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

// mdFence is a backtick fence longer than any run of backticks in lines.
func mdFence(lines []string) string {
	longest := 0
	for _, l := range lines {
		run := 0
		for i := 0; i < len(l); i++ {
			if l[i] != '`' {
				run = 0
				continue
			}
			run++
			longest = max(longest, run)
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}

// mdObject is `kind.group/name`, with " in `ns`" when the object lives in
// another namespace than the plan's.
func mdObject(p *plan.Plan, r plan.Ref, cell bool) string {
	s := mdCode(r.String(), cell)
	if r.Namespace != "" && r.Namespace != p.Namespace {
		s += " in " + mdCode(r.Namespace, cell)
	}
	return s
}

// mdShort cuts a long value for a table cell.
func mdShort(s string) string {
	if len(s) <= maxCellBytes {
		return s
	}
	return cutUTF8(s, maxCellBytes) + "…"
}

// mdCode writes s as a code span, or as escaped text when a code span
// cannot hold it (backticks, backslashes, control characters). In a table
// cell (cell), | is escaped as \| even in a code span, as GitHub requires.
func mdCode(s string, cell bool) string {
	if s == "" {
		return ""
	}
	if strings.ContainsAny(s, "`\\") || strings.ContainsFunc(s, isControl) {
		return mdText(s)
	}
	if cell {
		s = strings.ReplaceAll(s, "|", `\|`)
	}
	return "`" + s + "`"
}

// mdText escapes s so markdown shows it as written, also in a table cell
// and in HTML; control characters are shown as escapes.
var mdEscaper = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", `*`, `\*`, `_`, `\_`, `[`, `\[`, `]`, `\]`, `|`, `\|`, `~`, `\~`,
	`<`, "&lt;", `>`, "&gt;", `&`, "&amp;",
)

func mdText(s string) string { return mdEscaper.Replace(printable(s)) }
