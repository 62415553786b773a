package render

import (
	"html"
	"io"
	"regexp"
	"strings"
	"sync"

	"github.com/kubeplan/kubeplan/plan"
)

// Markdown helpers shared by the plan, lint and apply markdown, and the
// failed-plan report.

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

func mdText(s string) string { return mdNoRefs(mdEscaper.Replace(printable(s))) }

// mdHTML escapes s for HTML that markdown passes through (a <summary>).
func mdHTML(s string) string { return mdNoRefs(html.EscapeString(printable(s))) }

// mdRef is "@" before a login or team, or "#" before a number: outside
// code, GitHub turns them into mentions, which notify that user or team,
// and into references, which show in the referenced issue's timeline.
var mdRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[@＠]|#[0-9]`) })

// mdNoRefs puts a zero-width space (as the entity &#8203;) after every "@"
// and before the digit after every "#" of escaped text, so that text from
// the repository mentions nobody and references nothing; it reads the same.
// Code spans and code blocks need none: GitHub makes neither there.
func mdNoRefs(s string) string {
	return mdRef().ReplaceAllStringFunc(s, func(m string) string {
		if m[0] == '#' {
			return "#&#8203;" + m[1:]
		}
		return m + "&#8203;"
	})
}

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
	h := mdTitle("plan", namespace, applySet, "")
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

// shortSHA is a commit's abbreviation as git prints it (7 hex digits);
// other revisions are kept whole.
func shortSHA(rev string) string {
	if len(rev) == 40 && strings.Trim(rev, "0123456789abcdef") == "" {
		return rev[:7]
	}
	return rev
}

// mdTitle is the heading of a plan or apply view, naming the namespace,
// the ApplySet and the revision that are known:
//
//	### kubeplan plan: namespace `store`, ApplySet `configmap/gitops-applyset`, at `1a2b3c4`
func mdTitle(verb, namespace, applySet, revision string) string {
	var scope []string
	if namespace != "" {
		scope = append(scope, "namespace "+mdCode(namespace, false))
	}
	if applySet != "" {
		scope = append(scope, "ApplySet "+mdCode(applySet, false))
	}
	if revision != "" {
		scope = append(scope, "at "+mdCode(revision, false))
	}
	h := "### kubeplan " + verb
	if len(scope) > 0 {
		h += ": " + strings.Join(scope, ", ")
	}
	return h
}
