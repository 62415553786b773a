package render

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/kubeplan/kubeplan/lint"
)

// LintSummary is the one-line count of a report, the last line of the text
// format: "2 errors, 1 warning in 3 files (3 objects)".
func LintSummary(rep lint.Report) string { return textSummary(rep) }

// LintMarkdown writes the report as a GitHub job summary: a heading, the
// summary line and a table of every finding, errors first:
//
//	### kubeplan lint
//
//	**2 errors, 1 warning in 3 files (3 objects)**
//
//	| | location | rule | message |
//	|---|---|---|---|
//	| ❌ error | `apps/web.yaml:7:13` | `schema` | spec.replicas must be an integer (deployment.apps/web in store) |
//
// The output never exceeds maxBytes (0: no limit): rows are cut from the
// end and a last line says how many were left out.
func LintMarkdown(w io.Writer, rep lint.Report, maxBytes int) error {
	var b strings.Builder
	b.WriteString("### kubeplan lint\n\n**" + mdText(LintSummary(rep)) + "**\n")
	if len(rep.Findings) == 0 {
		b.WriteString("\nNo findings.\n")
		_, err := io.WriteString(w, cutUTF8(b.String(), limitOr(maxBytes, b.Len())))
		return err
	}
	fs := slices.Clone(rep.Findings)
	lint.Sort(fs)
	slices.SortStableFunc(fs, func(a, b lint.Finding) int { return int(b.Severity) - int(a.Severity) })
	rows := make([]string, len(fs))
	for i, f := range fs {
		rows[i] = lintRow(f)
	}
	b.WriteString("\n| | location | rule | message |\n|---|---|---|---|\n")
	all := strings.Join(rows, "")
	limit := limitOr(maxBytes, b.Len()+len(all))
	if b.Len()+len(all) <= limit {
		b.WriteString(all)
		_, err := io.WriteString(w, b.String())
		return err
	}
	for i, r := range rows {
		need := b.Len() + len(r)
		if rest := len(rows) - i - 1; rest > 0 {
			need += len(lintMore(rest)) // room to say what the rows after it lose
		}
		if need > limit {
			b.WriteString(lintMore(len(rows) - i))
			break
		}
		b.WriteString(r)
	}
	_, err := io.WriteString(w, cutUTF8(b.String(), limit))
	return err
}

func limitOr(maxBytes, n int) int {
	if maxBytes <= 0 {
		return n
	}
	return maxBytes
}

func lintMore(n int) string {
	return fmt.Sprintf("\n_…and %s more not shown: the job summary is limited to 1 MiB. Run `kubeplan lint` to see every finding._\n", thousands(n))
}

func lintRow(f lint.Finding) string {
	icon := map[lint.Severity]string{lint.Error: "❌", lint.Warning: "⚠️", lint.Info: "ℹ️"}[f.Severity]
	var msg []string
	for l := range strings.SplitSeq(strings.ReplaceAll(f.Message, "\r\n", "\n"), "\n") {
		msg = append(msg, mdText(l))
	}
	text := strings.Join(msg, "<br>")
	if o := objectLabel(f); o != "" {
		text += " (" + mdText(o) + ")"
	}
	return fmt.Sprintf("| %s %s | %s | %s | %s |\n", icon, f.Severity, mdCode(position(f), true), mdCode(f.Rule, true), text)
}
