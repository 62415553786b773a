package render

import (
	"io"
	"strings"

	"github.com/kubeplan/kubeplan/internal/ghactions"
	"github.com/kubeplan/kubeplan/lint"
)

// lintGitHub writes one GitHub Actions annotation command per finding:
//
//	::error file=apps/web.yaml,line=3,col=1,endLine=3,endColumn=18,title=schema::spec.replicas: ... (deployment.apps/web in prod)
//
// error -> ::error, warning -> ::warning, info -> ::notice. The title is the
// rule id; the message ends with the object when there is one. Unknown
// positions are left out, so the annotation is about the whole file.
// Escaping follows the runner protocol (see internal/ghactions). Every
// finding is written; nothing is capped yet.
func lintGitHub(w io.Writer, rep lint.Report, _ LintOptions) error {
	var b strings.Builder
	for _, f := range rep.Findings {
		msg := f.Message
		if o := objectLabel(f); o != "" {
			msg += " (" + o + ")"
		}
		a := ghactions.Annotation{
			Level:     githubLevel(f.Severity),
			File:      f.File,
			Line:      f.Line,
			Col:       f.Col,
			EndLine:   f.EndLine,
			EndColumn: f.EndCol,
			Title:     f.Rule,
			Message:   msg,
		}
		b.WriteString(a.String())
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
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
