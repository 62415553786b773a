package render

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/kubeplan/kubeplan/lint"
)

func lintMD(t *testing.T, rep lint.Report, max int) string {
	t.Helper()
	var b bytes.Buffer
	if err := LintMarkdown(&b, rep, max); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestLintMarkdownGolden(t *testing.T) {
	golden(t, "lint.markdown.golden", []byte(lintMD(t, mixedReport(), 0)))
	if got := lintMD(t, emptyReport(), 0); got != "### kubeplan lint\n\n**0 errors, 0 warnings in 3 files (5 objects)**\n\nNo findings.\n" {
		t.Errorf("empty report: %q", got)
	}
}

func TestLintMarkdownRows(t *testing.T) {
	out := lintMD(t, mixedReport(), 0)
	lines := strings.Split(out, "\n")
	var rows []string
	for _, l := range lines {
		if strings.HasPrefix(l, "| ") {
			rows = append(rows, l)
			if n := tableCells(l); n != 4 {
				t.Errorf("%d cells in %q", n, l)
			}
		}
	}
	if len(rows) != 1+len(mixedReport().Findings) {
		t.Fatalf("%d table rows for %d findings:\n%s", len(rows), len(mixedReport().Findings), out)
	}
	// Errors first; multi-line messages stay in their row.
	if !strings.HasPrefix(rows[1], "| ❌ error | `apps/web.yaml:3:1` | `schema` |") || !strings.HasPrefix(rows[6], "| ℹ️ info | `apps/web.yaml:30:3` |") {
		t.Errorf("order:\n%s", strings.Join(rows, "\n"))
	}
	if !strings.Contains(rows[6], "removed in 1.25<br>use policy/v1") {
		t.Errorf("multi-line message: %q", rows[6])
	}
}

func TestLintMarkdownCap(t *testing.T) {
	rep := manyFindings(3000, 3000, 0)
	full := lintMD(t, rep, 0)
	if strings.Contains(full, "more not shown") || strings.Count(full, "\n| ") != 6001 {
		t.Fatalf("uncapped output lost rows")
	}
	for _, limit := range []int{len(full) - 1, 100_000, 5_000, 400} {
		got := lintMD(t, rep, limit)
		if len(got) > limit || !utf8.ValidString(got) {
			t.Errorf("limit %d: %d bytes", limit, len(got))
		}
		shown := strings.Count(got, "\n| ❌") + strings.Count(got, "\n| ⚠️")
		want := "_…and " + thousands(6000-shown) + " more not shown: the job summary is limited to 1 MiB."
		if !strings.Contains(got, want) {
			t.Errorf("limit %d: %d rows shown, no %q:\n%s", limit, shown, want, got[max(0, len(got)-300):])
		}
		// Rows are only dropped when needed: another would not have fit.
		if limit > 1000 && len(got) < limit-250 {
			t.Errorf("limit %d: only %d bytes used", limit, len(got))
		}
	}
}
