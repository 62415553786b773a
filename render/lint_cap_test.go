package render

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/lint"
)

// capReport has 105 duplicate-object errors and 3 schema errors.
func capReport() lint.Report {
	rep := lint.Report{Files: 1, Objects: 108}
	for i := range 105 {
		rep.Findings = append(rep.Findings, lint.Finding{File: "a.yaml", Line: i + 1, Col: 1, Severity: lint.Error, Rule: "duplicate-object", Message: fmt.Sprintf("copy %d", i)})
	}
	for i := range 3 {
		rep.Findings = append(rep.Findings, lint.Finding{File: "b.yaml", Line: i + 1, Col: 1, Severity: lint.Error, Rule: "schema", Message: "bad"})
	}
	return rep
}

// The text format lists DefaultMaxPerRule findings of a rule and counts the
// rest; the summary still counts every finding, and JSON lists them all.
func TestTextCapsFindingsPerRule(t *testing.T) {
	rep := capReport()
	out := string(render(t, "text", rep, testOpts))
	if n := strings.Count(out, " duplicate-object: "); n != DefaultMaxPerRule {
		t.Errorf("text lists %d duplicate-object findings, want %d", n, DefaultMaxPerRule)
	}
	if n := strings.Count(out, " schema: "); n != 3 {
		t.Errorf("text lists %d schema findings, want 3", n)
	}
	if strings.Contains(out, "copy 100\n") || !strings.Contains(out, "copy 99\n") {
		t.Errorf("text does not keep the first findings in order:\n%s", out)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if want := "... and 5 more duplicate-object findings not shown (-o json lists all)"; lines[len(lines)-2] != want {
		t.Errorf("overflow line = %q, want %q", lines[len(lines)-2], want)
	}
	if want := "108 errors, 0 warnings in 1 file (108 objects)"; lines[len(lines)-1] != want {
		t.Errorf("summary = %q, want %q", lines[len(lines)-1], want)
	}

	var doc struct {
		Findings []lint.Finding `json:"findings"`
	}
	if err := json.Unmarshal(render(t, "json", rep, testOpts), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Findings) != 108 {
		t.Errorf("json lists %d findings, want all 108", len(doc.Findings))
	}
}

// A negative MaxPerRule lists everything; a positive one is the limit.
func TestTextMaxPerRuleOption(t *testing.T) {
	opts := testOpts
	opts.MaxPerRule = -1
	out := string(render(t, "text", capReport(), opts))
	if n := strings.Count(out, " duplicate-object: "); n != 105 || strings.Contains(out, "not shown") {
		t.Errorf("MaxPerRule -1: %d duplicate-object lines, overflow line present: %v", n, strings.Contains(out, "not shown"))
	}
	opts.MaxPerRule = 2
	out = string(render(t, "text", capReport(), opts))
	for _, want := range []string{"... and 103 more duplicate-object findings not shown", "... and 1 more schema finding not shown"} {
		if !strings.Contains(out, want) {
			t.Errorf("MaxPerRule 2: no %q in\n%s", want, out)
		}
	}
}
