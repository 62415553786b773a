package render

import (
	"regexp"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/lint"
)

func TestTextGolden(t *testing.T) {
	golden(t, "lint.text.golden", render(t, "text", mixedReport(), testOpts))
	golden(t, "lint-empty.text.golden", render(t, "text", emptyReport(), testOpts))
	color := testOpts
	color.Color = true
	golden(t, "lint-color.text.golden", render(t, "text", mixedReport(), color))
}

// vetLine is the file:line:col: prefix editors and problem matchers parse.
var vetLine = regexp.MustCompile(`^([^:]+):(\d+):(\d+): (error|warning|info) ([a-z-]+): `)

func TestTextShape(t *testing.T) {
	rep := mixedReport()
	out := string(render(t, "text", rep, testOpts))
	if strings.Contains(out, "\x1b[") {
		t.Error("colour without opts.Color")
	}
	var lines []string
	for l := range strings.SplitSeq(strings.TrimSuffix(out, "\n"), "\n") {
		if !strings.HasPrefix(l, "\t") { // continuation of a multi-line message
			lines = append(lines, l)
		}
	}
	if len(lines) != len(rep.Findings)+1 {
		t.Fatalf("got %d lines, want one per finding and a summary:\n%s", len(lines), out)
	}
	for i, f := range rep.Findings {
		m := vetLine.FindStringSubmatch(lines[i])
		if m == nil {
			t.Errorf("line %q is not file:line:col: severity rule: message", lines[i])
			continue
		}
		if m[1] != f.File || m[4] != f.Severity.String() || m[5] != f.Rule {
			t.Errorf("line %q does not match finding %+v", lines[i], f)
		}
	}
	if want := "3 errors, 2 warnings, 1 info in 3 files (5 objects)"; lines[len(lines)-1] != want {
		t.Errorf("summary = %q, want %q", lines[len(lines)-1], want)
	}
}

func TestTextSummary(t *testing.T) {
	for _, tt := range []struct {
		rep  lint.Report
		want string
	}{
		{lint.Report{Files: 3, Objects: 5}, "0 errors, 0 warnings in 3 files (5 objects)"},
		{lint.Report{Files: 1, Objects: 1, Findings: []lint.Finding{{Severity: lint.Error}, {Severity: lint.Warning}}},
			"1 error, 1 warning in 1 file (1 object)"},
		{lint.Report{Findings: []lint.Finding{{Severity: lint.Info}, {Severity: lint.Info}}}, "0 errors, 0 warnings, 2 infos in 0 files (0 objects)"},
	} {
		if got := textSummary(tt.rep); got != tt.want {
			t.Errorf("textSummary = %q, want %q", got, tt.want)
		}
	}
}

func TestTextColorOnlySeverity(t *testing.T) {
	opts := testOpts
	opts.Color = true
	out := string(render(t, "text", mixedReport(), opts))
	plain := regexp.MustCompile("\x1b\\[[0-9;]*m").ReplaceAllString(out, "")
	if want := string(render(t, "text", mixedReport(), testOpts)); plain != want {
		t.Errorf("colour changed more than escape codes:\n%s", plain)
	}
	for _, w := range []string{ansiRed + "error" + ansiReset, ansiYellow + "warning" + ansiReset, ansiCyan + "info" + ansiReset} {
		if !strings.Contains(out, w) {
			t.Errorf("coloured output lacks %q", w)
		}
	}
}
