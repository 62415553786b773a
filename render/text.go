package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/kubeplan/kubeplan/lint"
)

// lintText writes one line per finding in the shape compilers and go vet
// use, so editors and terminals can jump to it:
//
//	apps/web.yaml:3:1: error schema: spec.replicas: expected integer (deployment.apps/web in prod)
//
// Unknown positions print as 1. Continuation lines of a multi-line message
// are indented with a tab. The last line is always a summary:
//
//	2 errors, 1 warning, 1 info in 3 files (5 objects)
//
// where the infos part appears only when there are infos. Beyond
// opts.MaxPerRule findings of one rule, the rest are counted in one line
// ("... and 79900 more duplicate-object findings not shown") before it. With opts.Color
// only the severity word is coloured, so the line prefix stays parseable.
func lintText(w io.Writer, rep lint.Report, opts LintOptions) error {
	var b strings.Builder
	shown, over := capPerRule(rep.Findings, opts.maxPerRule())
	for _, f := range shown {
		b.WriteString(findingLine(f, opts.Color))
	}
	for _, o := range over {
		fmt.Fprintf(&b, "... and %s not shown (-o json lists all)\n", plural(o.n, "more "+o.rule+" finding"))
	}
	b.WriteString(textSummary(rep))
	b.WriteByte('\n')
	_, err := io.WriteString(w, b.String())
	return err
}

// findingLine is one finding of the text format, newline included.
func findingLine(f lint.Finding, color bool) string {
	msg := strings.ReplaceAll(f.Message, "\r\n", "\n")
	msg = strings.ReplaceAll(msg, "\n", "\n\t")
	s := fmt.Sprintf("%s: %s %s: %s", position(f), severityWord(f.Severity, color), f.Rule, msg)
	if o := objectLabel(f); o != "" {
		s += " (" + o + ")"
	}
	return s + "\n"
}

const (
	ansiReset  = "\x1b[0m"
	ansiRed    = "\x1b[1;31m"
	ansiYellow = "\x1b[33m"
	ansiCyan   = "\x1b[36m"
)

func severityWord(s lint.Severity, color bool) string {
	if !color {
		return s.String()
	}
	c := ansiCyan
	switch s {
	case lint.Error:
		c = ansiRed
	case lint.Warning:
		c = ansiYellow
	}
	return c + s.String() + ansiReset
}

func textSummary(rep lint.Report) string {
	s := plural(rep.Count(lint.Error), "error") + ", " + plural(rep.Count(lint.Warning), "warning")
	if n := rep.Count(lint.Info); n > 0 {
		s += ", " + plural(n, "info")
	}
	return fmt.Sprintf("%s in %s (%s)", s, plural(rep.Files, "file"), plural(rep.Objects, "object"))
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
