package render

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/kubeplan/kubeplan/run"
)

// runPlanMarkdown writes the plans of a run as one pull-request comment or
// job summary:
//
//	### kubeplan plan: 3 projects
//
//	**Total: 3 projects, 1 with changes, 1 failed, 1 skipped: 1 to add, 1 to change, 1 to prune, 3 unchanged.**
//
//	> [!CAUTION]                                       when a project failed or was skipped
//	> 1 project failed and 1 was skipped; see below.
//
//	| project | cluster | namespace | add | change | prune | drift | status |
//	|---|---|---|--:|--:|--:|--:|---|
//	| `shop-web-prod` | `prod` | `shop-prod` | 1 | 1 | 1 | 1 | changes |
//	| `shop-api-prod` | `prod` | `shop-prod` | - | - | - | - | **failed** |
//
//	<details open><summary>shop-web-prod: Plan: 1 to add, ...</summary>
//	### kubeplan plan: namespace `shop-prod`, ...      the project's plan, as Plan's markdown
//	</details>
//
// change counts updates, replacements and releases; drift counts drifted
// objects; the status of a project whose plan a rule denies, waits for an
// approval or is outside its change windows says so (", ⛔ denied",
// runMdGuards), and its section has its plan's guard lines and table. A section is open when the project has changes or failed,
// closed when it has none or was skipped; a failed project's section has
// the error and lint's findings, a skipped one's the reason.
//
// The output never exceeds o.MaxBytes (0: DefaultMaxBytes). The heading,
// total and table always fit; the rest is shared fairly among the
// sections (see runMdFit): small sections stay whole, and a big plan is
// cut by Plan's own markdown layout, whose note says what was left out
// and that the full plan is in o.SummaryHint (a link to o.SummaryURL).
func runPlanMarkdown(w io.Writer, r *run.Report, o RunOptions) error {
	limit, why := mdLimit(o.MaxBytes, o.LimitName)
	popts := PlanOptions{SummaryHint: o.SummaryHint, SummaryURL: o.SummaryURL, LimitName: "this project's share of " + why}
	return runMarkdown(w, r, runMdDoc{verb: "kubeplan plan", total: RunSummary(r), limit: limit,
		columns: "add | change | prune | drift |", align: "--:|--:|--:|--:|",
		cells: func(p run.ProjectReport) string {
			if p.Plan == nil {
				return "- | - | - | - |"
			}
			s := p.Plan.Summary()
			return fmt.Sprintf("%d | %d | %d | %d |", s.Add, s.Change+s.Replace+s.Release, s.Prune, s.Drifted)
		},
		section: func(p run.ProjectReport) runMdSection { return runPlanSection(p, popts) },
	})
}

// runMdDoc is what the plan and apply markdown of a run differ in.
type runMdDoc struct {
	verb, total    string // "kubeplan plan", the total line
	columns, align string // the table's columns between namespace and status
	cells          func(run.ProjectReport) string
	section        func(run.ProjectReport) runMdSection
	limit          int
}

// runMarkdown writes the heading, total and table of d, then the
// projects' sections, in d.limit bytes (runMdFit).
func runMarkdown(w io.Writer, r *run.Report, d runMdDoc) error {
	var head strings.Builder
	head.WriteString(runMdHead(d.verb, r, d.total))
	head.WriteString("\n| project | cluster | namespace | " + d.columns + " status |\n|---|---|---|" + d.align + "---|\n")
	secs := make([]runMdSection, len(r.Projects))
	for i, p := range r.Projects {
		fmt.Fprintf(&head, "| %s | %s | %s | %s %s |\n", mdCode(runName(p), true), mdCode(p.Cluster, true), mdCode(p.Namespace, true), d.cells(p), runMdStatus(p.Status)+runMdGuards(p))
		secs[i] = d.section(p)
	}
	_, err := io.WriteString(w, runMdFit(head.String(), secs, d.limit))
	return err
}

// runPlanSection is a project's section of the plan markdown.
func runPlanSection(p run.ProjectReport, popts PlanOptions) runMdSection {
	s := runMdSection{title: runName(p) + ": " + string(p.Status), open: p.Status == run.Changes || p.Status == run.Failed}
	hint := mdHint(popts.SummaryHint, popts.SummaryURL)
	switch {
	case p.Plan != nil && p.Status != run.Failed:
		s.title = runName(p) + ": " + p.Plan.Summary().String()
		s.content = func(budget int) string {
			o := popts
			o.MaxBytes = min(budget, math.MaxInt32)
			return fitOrNote(planMarkdownLayout(p.Plan, o), "_This project's plan does not fit here; it is in "+hint+"._\n", budget)
		}
	case p.Status == run.Failed:
		s.content = func(budget int) string { return runFailedMarkdown(p, budget, hint) }
	default:
		s.content = runSkippedContent(p)
	}
	return s
}

// runSkippedContent is a skipped project's section: the reason.
func runSkippedContent(p run.ProjectReport) func(budget int) string {
	text := "Skipped."
	if p.Error != "" {
		text = "Skipped: " + strings.Join(mdLines(p.Error), "<br>")
	}
	return func(budget int) string { return fitOrNote(mdLayout{limit: -1}, text+"\n", budget) }
}

// runFailedMarkdown is a failed project's section: the failed-plan report
// (PlanFailedMarkdown) and a table of lint's findings, in budget bytes.
func runFailedMarkdown(p run.ProjectReport, budget int, hint string) string {
	report := func(budget int) string {
		var b strings.Builder
		_ = PlanFailedMarkdown(&b, p.Namespace, p.ApplySet, cmp.Or(p.Error, "failed"), budget)
		return b.String()
	}
	return withFindings(report(0), p, budget, hint, report)
}

// withFindings is a project's report (head, whole) and a table of lint's
// findings cut to fit budget; when not even the report fits beside the
// table's note, the report cut to budget by cut, or "" when budget is too
// little for a useful one.
func withFindings(head string, p run.ProjectReport, budget int, hint string, cut func(budget int) string) string {
	if l := runFindingsLayout(head, p, budget, hint); l.fits() {
		return mdFit(l.head, l.secs, l.limit, l.note)
	}
	if budget < 200 {
		return ""
	}
	return cut(budget)
}

// runFindingsLayout lays out head and a table of the project's lint
// findings, cut from the end to fit budget; the note says the full list
// is in where (markdown).
func runFindingsLayout(head string, p run.ProjectReport, budget int, where string) mdLayout {
	rows := &mdSection{one: "finding", many: "findings", tail: true, intro: "\n| | location | rule | message |\n|---|---|---|---|\n"}
	for _, f := range p.Findings {
		rows.rows = append(rows.rows, lintRow(f))
	}
	return mdLayout{head: head, secs: []*mdSection{rows}, limit: min(budget, math.MaxInt32),
		note: mdNoteText{why: "this project's share of the limit", what: "list", where: where}}
}

// runMdHead is the heading and total of a run's markdown, and a caution
// when projects failed or were skipped.
func runMdHead(verb string, r *run.Report, total string) string {
	t := r.Total()
	h := fmt.Sprintf("### %s: %s\n\n**%s**\n", verb, plural(t.Projects, "project"), mdText(total))
	if t.Failed+t.Skipped > 0 {
		var parts []string
		if t.Failed > 0 {
			parts = append(parts, fmt.Sprintf("%s failed", plural(t.Failed, "project")))
		}
		if t.Skipped > 0 {
			what, verb := plural(t.Skipped, "project"), "was"
			if t.Failed > 0 {
				what = fmt.Sprint(t.Skipped)
			}
			if t.Skipped > 1 {
				verb = "were"
			}
			parts = append(parts, what+" "+verb+" skipped")
		}
		h += "\n> [!CAUTION]\n> " + strings.Join(parts, " and ") + "; see below.\n"
	}
	return h
}

// runMdStatus is a project's status for the table: failed stands out.
func runMdStatus(s run.Status) string {
	switch s {
	case run.Failed:
		return "**failed**"
	case run.Skipped:
		return "_skipped_"
	case run.NoChanges:
		return "no changes"
	}
	return mdText(string(s))
}
