package render

import (
	"bytes"
	"testing"

	"github.com/kubeplan/kubeplan/lint"
)

// The JSON written finding by finding is byte for byte the document
// encoding/json makes of the whole report.
func TestLintJSONStreamedSameAsWhole(t *testing.T) {
	odd := lint.Report{Files: 1, Objects: 2, Findings: []lint.Finding{
		{File: "a <b>.yaml", Line: 1, Col: 2, EndLine: 1, EndCol: 9, Severity: lint.Error, Rule: "schema", Message: "x & y\n\t\"z\" é \u2028", Object: "v1/a", Namespace: "n", Field: "spec.x"},
		{File: "b.yaml", Severity: lint.Info, Rule: "r", Message: "m"},
	}}
	for name, rep := range map[string]lint.Report{"mixed": mixedReport(), "empty": emptyReport(), "odd": odd, "zero": {}} {
		var got, want bytes.Buffer
		if err := lintJSON(&got, rep, testOpts); err != nil {
			t.Fatal(err)
		}
		findings := rep.Findings
		if findings == nil {
			findings = []lint.Finding{}
		}
		doc := jsonLintDoc{Version: JSONVersion, Summary: jsonSummary{Errors: rep.Count(lint.Error), Warnings: rep.Count(lint.Warning),
			Infos: rep.Count(lint.Info), Files: rep.Files, Objects: rep.Objects}, Findings: findings}
		if err := writeJSONRaw(&want, doc); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("%s:\n got %s\nwant %s", name, got.String(), want.String())
		}
	}
}
