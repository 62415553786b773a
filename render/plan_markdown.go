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

// planMarkdown writes the plan as a pull-request comment, the risky parts
// first:
//
//	### kubeplan plan: namespace `store`, ApplySet `configmap/gitops-applyset`
//
//	**Plan: 1 to add, 2 to change, 1 to prune, 5 unchanged.**
//
//	> [!CAUTION]                                when anything is pruned or drifted:
//	> Applying deletes 1 object ... takes back  what applying destroys, in one line
//	#### Prune                                  a list of the objects applying deletes
//	#### Drift                                  a table: object, field, live, git, set by
//	#### Changes                                one row per create, update, prune
//	<details><summary>~ update deployment.apps/web</summary>   one per create or
//	```diff                                                     update with a diff
//
// Unchanged objects are only counted in the summary line. Table cells
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
	limit := opts.MaxBytes
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	hint := opts.SummaryHint
	if hint == "" {
		hint = defaultSummaryHint
	}
	hint = mdText(hint)
	if opts.SummaryURL != "" {
		hint = "[" + hint + "](" + mdURL(opts.SummaryURL) + ")"
	}
	why := opts.LimitName
	if why == "" {
		why = "GitHub's " + thousands(limit) + "-character limit"
	}
	cs := sortedChanges(p)
	secs := []*mdSection{mdPruneList(cs), mdDriftTable(p, cs), mdChangeTable(cs), mdDiffs(p, cs)}
	_, err := io.WriteString(w, mdFit(mdHead(p), secs, limit, mdNoteText{why: mdText(why), what: "plan", where: hint}))
	return err
}

// mdSection is a part of the comment that can lose rows from its end.
type mdSection struct {
	one, many string   // what a row is, for the note: "diff", "diffs"
	intro     string   // written before the first row; starts with a blank line
	rows      []string // each ends in a newline
	outro     string   // written after the rows (and the "more" line)
	tail      bool     // when cut, say so under the rows
	kept      int      // rows written
	shown     bool     // intro written
}

// more is the line under a cut table.
func (s *mdSection) more(n int) string {
	return fmt.Sprintf("\n_…and %s more not shown._\n", thousands(n))
}

func (s *mdSection) size() int {
	n := len(s.intro) + len(s.outro)
	for _, r := range s.rows {
		n += len(r)
	}
	return n
}

// mdFit lays out head, the note and as many rows of each section, in
// order, as fit in limit bytes.
func mdFit(head string, secs []*mdSection, limit int, hint mdNoteText) string {
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
	mdFill(secs, limit-len(head)-len(mdNote(secs, hint, true)))
	out := mdAssemble(head, mdNote(secs, hint, false), secs)
	mdFill(secs, limit-len(head)-len(mdNote(secs, hint, false)))
	if again := mdAssemble(head, mdNote(secs, hint, false), secs); len(again) <= limit {
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
		left := budget - len(s.intro) - len(s.outro)
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
		b.WriteString(s.outro)
	}
	return b.String()
}

// mdNoteText is what the note says besides the counts, as markdown: why
// rows were left out ("GitHub's 65,536-character limit") and where the
// full text is (what "plan", where "the job summary", maybe a link).
type mdNoteText struct{ why, what, where string }

// mdNote says what was left out:
//
//	> ⚠️ 3 diffs were left out to stay under GitHub's 65,536-character limit; the full plan is in the job summary.
//
// With worst, it is the longest the note can be: every row left out.
func mdNote(secs []*mdSection, text mdNoteText, worst bool) string {
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
	return fmt.Sprintf("\n> ⚠️ %s %s left out to stay under %s; the full %s is in %s.\n", list, verb, text.why, text.what, text.where)
}

func mdHead(p *plan.Plan) string {
	h := "### kubeplan plan"
	var scope []string
	if p.Namespace != "" {
		scope = append(scope, "namespace "+mdCode(p.Namespace, false))
	}
	if p.Parent != nil {
		scope = append(scope, "ApplySet "+mdCode(p.Parent.Ref.String(), false))
	}
	if len(scope) > 0 {
		h += ": " + strings.Join(scope, ", ")
	}
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
	if drifted > 0 {
		risks = append(risks, fmt.Sprintf("**takes back %s %s changed in the cluster** by hand or by another tool (see Drift)", thousands(drifted), pluralWord(drifted, "field")))
	}
	if len(risks) > 0 {
		h += "\n> [!CAUTION]\n> Applying " + strings.Join(risks, " and ") + ".\n"
	}
	return h
}

func mdChangeTable(cs []plan.Change) *mdSection {
	s := &mdSection{one: "table row", many: "table rows", tail: true,
		intro: "\n#### Changes\n\n| | object | namespace | source |\n|---|---|---|---|\n"}
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

// mdLines escapes each line of s with mdText.
func mdLines(s string) []string {
	lines := diffLines(s)
	for i, l := range lines {
		lines[i] = mdText(l)
	}
	return lines
}

// mdURL keeps a link target from ending the link early.
func mdURL(u string) string {
	return strings.NewReplacer(" ", "%20", "(", "%28", ")", "%29", "<", "%3C", ">", "%3E").Replace(u)
}

// PlanFailedMarkdown is the comment and job summary of a plan that could
// not be made: the heading, a caution line and the error in a code block.
// errText must already be free of secrets. The output never exceeds
// maxBytes (0: no limit); a long error is cut.
func PlanFailedMarkdown(w io.Writer, namespace, applySet, errText string, maxBytes int) error {
	p := &plan.Plan{Namespace: namespace}
	h := mdHead(p)
	h = h[:strings.Index(h, "\n\n")] // the heading only: there is no summary
	if applySet != "" {
		if namespace != "" {
			h += ","
		} else {
			h += ":"
		}
		h += " ApplySet " + mdCode(applySet, false)
	}
	lines := diffLines(errText)
	for i, l := range lines {
		lines[i] = printable(l)
	}
	fence := mdFence(lines)
	out := h + "\n\n> [!CAUTION]\n> The plan failed; the job log has the details.\n\n" +
		fence + "\n" + strings.Join(lines, "\n") + "\n" + fence + "\n"
	if maxBytes > 0 && len(out) > maxBytes {
		tail := "\n…\n" + fence + "\n"
		out = cutUTF8(out, max(0, maxBytes-len(tail))) + tail
		out = cutUTF8(out, maxBytes)
	}
	_, err := io.WriteString(w, out)
	return err
}
