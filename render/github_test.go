package render

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/lint"
)

func TestGitHubGolden(t *testing.T) {
	golden(t, "lint.github.golden", render(t, "github", mixedReport(), testOpts))
	if out := render(t, "github", lint.Report{Files: 3}, testOpts); len(out) != 0 {
		t.Errorf("no findings should print nothing, got %q", out)
	}
}

func TestGitHubCommands(t *testing.T) {
	rep := mixedReport()
	lines := strings.Split(strings.TrimSuffix(string(render(t, "github", rep, testOpts)), "\n"), "\n")
	if len(lines) != len(rep.Findings) {
		t.Fatalf("%d lines for %d findings", len(lines), len(rep.Findings))
	}
	want := map[string]string{
		// range, object and namespace
		"schema:3": "::error file=apps/web.yaml,line=3,col=1,endLine=3,endColumn=18,title=schema::spec.replicas: expected integer, got string \"two\" (deployment.apps/web in prod)",
		// info is a notice; the newline in the message is escaped
		"deprecated-api:30": "::notice file=apps/web.yaml,line=30,col=3,title=deprecated-api::policy/v1beta1 is removed in 1.25%0Ause policy/v1 (poddisruptionbudget.policy/web)",
		// no position: a file-level annotation
		"parse:0": "::error file=base/empty.yaml,title=parse::yaml: did not find expected key",
		// % in the message escaped, , and : left alone
		"custom-cel:4": "::warning file=my dir/cm.yaml,line=4,col=5,title=custom-cel::data key \"a,b:c\" is not <portable> & 100%25 wrong (configmap/settings in prod)",
	}
	checked := 0
	for i, f := range rep.Findings {
		if w, ok := want[fmt.Sprintf("%s:%d", f.Rule, f.Line)]; ok {
			checked++
			if lines[i] != w {
				t.Errorf("finding %s:\ngot  %s\nwant %s", f.Rule, lines[i], w)
			}
		}
	}
	if checked != len(want) {
		t.Errorf("checked %d of %d expected commands; fixture changed?", checked, len(want))
	}
}

func TestGitHubPropertyEscaping(t *testing.T) {
	rep := lint.Report{Findings: []lint.Finding{{File: "a,b:c.yaml", Line: 1, Col: 2, Severity: lint.Warning, Rule: "x:y,z", Message: "m"}}}
	want := "::warning file=a%2Cb%3Ac.yaml,line=1,col=2,title=x%3Ay%2Cz::m\n"
	if got := string(render(t, "github", rep, testOpts)); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
