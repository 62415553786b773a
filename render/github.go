package render

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/kubeplan/kubeplan/internal/ghactions"
	"github.com/kubeplan/kubeplan/lint"
)

// lintGitHub writes GitHub Actions annotation commands:
//
//	::error file=apps/web.yaml,line=3,col=1,endLine=3,endColumn=18,title=schema::spec.replicas: ... (deployment.apps/web in prod)
//
// error -> ::error, warning -> ::warning, info -> ::notice. The title is the
// rule id; the message ends with the object when there is one. Unknown
// positions are left out, so the annotation is about the whole file.
// Escaping follows the runner protocol (see internal/ghactions); when w is
// a ghactions.Guard the commands go through its Commands writer, the only
// lines it does not escape.
//
// GitHub shows at most ghactions.MaxAnnotations annotations of each kind
// per step and drops the rest silently, so the findings are sorted errors
// first, then warnings, then notices (by file, line and column within
// each), and at most 10 of each kind are written. When any finding is left
// out, a last ::notice counts what was left out and points to the job
// summary, which lists every finding; notices then stop at 9, so the count
// itself is never dropped.
func lintGitHub(w io.Writer, rep lint.Report, _ LintOptions) error {
	var b strings.Builder
	for _, a := range GitHubAnnotations(rep) {
		b.WriteString(a.String())
		b.WriteByte('\n')
	}
	_, err := io.WriteString(ghactions.CommandWriter(w), b.String())
	return err
}

// GitHubAnnotations returns the annotations lintGitHub writes, in order:
// capped per kind, with the closing notice when anything was left out.
func GitHubAnnotations(rep lint.Report) []ghactions.Annotation {
	fs := slices.Clone(rep.Findings)
	lint.Sort(fs)
	slices.SortStableFunc(fs, func(a, b lint.Finding) int { return int(b.Severity) - int(a.Severity) })

	total := map[lint.Severity]int{}
	for _, f := range fs {
		total[f.Severity]++
	}
	limit := map[lint.Severity]int{lint.Error: ghactions.MaxAnnotations, lint.Warning: ghactions.MaxAnnotations, lint.Info: ghactions.MaxAnnotations}
	cut := total[lint.Error] > limit[lint.Error] || total[lint.Warning] > limit[lint.Warning] || total[lint.Info] > limit[lint.Info]
	if cut {
		limit[lint.Info]-- // room for the closing notice
	}
	var out []ghactions.Annotation
	shown := map[lint.Severity]int{}
	for _, f := range fs {
		if shown[f.Severity] >= limit[f.Severity] {
			continue
		}
		shown[f.Severity]++
		out = append(out, findingAnnotation(f))
	}
	if cut {
		out = append(out, ghactions.Annotation{
			Level:   ghactions.LevelNotice,
			Title:   "kubeplan lint",
			Message: cutNotice(total, shown, len(fs)),
		})
	}
	return out
}

func findingAnnotation(f lint.Finding) ghactions.Annotation {
	msg := f.Message
	if o := objectLabel(f); o != "" {
		msg += " (" + o + ")"
	}
	return ghactions.Annotation{
		Level:     githubLevel(f.Severity),
		File:      f.File,
		Line:      f.Line,
		Col:       f.Col,
		EndLine:   f.EndLine,
		EndColumn: f.EndCol,
		Title:     f.Rule,
		Message:   msg,
	}
}

// cutNotice says how many findings of each kind were not annotated:
// "4 more errors and 2 more warnings were not annotated (GitHub shows 10 of
// each kind per step); the job summary lists all 26 findings."
func cutNotice(total, shown map[lint.Severity]int, all int) string {
	var parts []string
	left := 0
	for _, s := range []lint.Severity{lint.Error, lint.Warning, lint.Info} {
		if n := total[s] - shown[s]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d more %s", n, pluralWord(n, s.String())))
			left += n
		}
	}
	list := joinAnd(parts)
	verb := "were"
	if left == 1 {
		verb = "was"
	}
	return fmt.Sprintf("%s %s not annotated (GitHub shows %d of each kind per step); the job summary lists all %d findings.",
		list, verb, ghactions.MaxAnnotations, all)
}

func pluralWord(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

func githubLevel(s lint.Severity) ghactions.Level {
	switch s {
	case lint.Error:
		return ghactions.LevelError
	case lint.Warning:
		return ghactions.LevelWarning
	default:
		return ghactions.LevelNotice
	}
}
