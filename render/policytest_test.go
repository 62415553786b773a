package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/lint/admission"
	"github.com/kubeplan/kubeplan/manifest"
)

func policyTestReport() *admission.TestReport {
	return &admission.TestReport{
		Files: []string{"p/kubeplan-test.yaml"},
		Cases: []admission.CaseResult{
			{File: "p/kubeplan-test.yaml", TestResult: admission.TestResult{Policy: "nonroot", Resource: "Deployment/web", Result: "fail", Line: 6}, Got: "fail", GotMessage: "must run as non-root"},
			{File: "p/kubeplan-test.yaml", TestResult: admission.TestResult{Policy: "nonroot", Binding: "b", Resource: "Deployment/api", Result: "pass", Line: 9}, Got: "fail", GotMessage: "must run as non-root", Mismatch: "want pass, got fail: must run as non-root"},
		},
		Passed: 1, Failed: 1,
		Problems: []*manifest.Problem{{File: "p/policy.yaml", Pos: manifest.Pos{Line: 12, Col: 19}, Message: "does not compile"}},
	}
}

func TestPolicyTestText(t *testing.T) {
	var b bytes.Buffer
	if err := PolicyTest(&b, "text", policyTestReport()); err != nil {
		t.Fatal(err)
	}
	want := `ok    p/kubeplan-test.yaml:6: nonroot Deployment/web: fail
FAIL  p/kubeplan-test.yaml:9: nonroot (binding b) Deployment/api: want pass, got fail: must run as non-root
error p/policy.yaml:12:19: does not compile
1 passed, 1 failed in 1 files, 1 errors
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestPolicyTestJSON(t *testing.T) {
	var b bytes.Buffer
	if err := PolicyTest(&b, "json", policyTestReport()); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{`"passed": 1`, `"failed": 1`, `"mismatch": "want pass, got fail: must run as non-root"`, `"line": 12`, `"column": 19`} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("json lacks %s:\n%s", s, b.String())
		}
	}
}
