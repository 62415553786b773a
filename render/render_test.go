package render

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/lint"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// mixedReport exercises every field: all severities, findings with and
// without object or namespace, unknown positions, ranges, a multi-line
// message with characters every format must escape, and a path with a space.
func mixedReport() lint.Report {
	fs := []lint.Finding{
		{File: "my dir/cm.yaml", Line: 4, Col: 5, Severity: lint.Warning, Rule: "custom-cel",
			Message: `data key "a,b:c" is not <portable> & 100% wrong`, Object: "configmap/settings", Namespace: "prod", Field: "data"},
		{File: "apps/web.yaml", Line: 3, Col: 1, EndLine: 3, EndCol: 18, Severity: lint.Error, Rule: "schema",
			Message: `spec.replicas: expected integer, got string "two"`, Object: "deployment.apps/web", Namespace: "prod", Field: "spec.replicas"},
		{File: "apps/web.yaml", Line: 12, Col: 16, Severity: lint.Warning, Rule: "no-latest-tag",
			Message: `image "nginx:latest" uses the latest tag`, Object: "deployment.apps/web", Namespace: "prod", Field: "spec.template.spec.containers[0].image"},
		{File: "apps/web.yaml", Line: 30, Col: 3, Severity: lint.Info, Rule: "deprecated-api",
			Message: "policy/v1beta1 is removed in 1.25\nuse policy/v1", Object: "poddisruptionbudget.policy/web"},
		{File: "apps/web.yaml", Line: 31, Col: 1, Severity: lint.Error, Rule: "schema",
			Message: "metadata.name: required", Object: "poddisruptionbudget.policy/web"},
		{File: "base/empty.yaml", Severity: lint.Error, Rule: "parse", Message: "yaml: did not find expected key"},
	}
	lint.Sort(fs)
	return lint.Report{Findings: fs, Files: 3, Objects: 5}
}

func emptyReport() lint.Report { return lint.Report{Files: 3, Objects: 5} }

// testRules lists some rules, one with no findings; "parse" and
// "custom-cel" appear only in findings.
var testRules = []lint.RuleInfo{
	{ID: "schema", Severity: lint.Error, Description: "Objects must match the Kubernetes OpenAPI schema.",
		HelpURI: "https://github.com/kubeplan/kubeplan/blob/main/docs/rules.md#schema"},
	{ID: "no-latest-tag", Severity: lint.Warning, Description: "Images must be pinned to a tag or digest other than latest."},
	{ID: "deprecated-api", Severity: lint.Info, Description: "API versions that are deprecated or removed in the target Kubernetes version."},
	{ID: "run-as-non-root", Severity: lint.Warning, Description: "Containers must not run as root."},
}

var testOpts = LintOptions{ToolVersion: "0.1.0", Rules: testRules}

// render renders rep in format and fails the test on error.
func render(t *testing.T, format string, rep lint.Report, opts LintOptions) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Lint(&b, format, rep, opts); err != nil {
		t.Fatalf("Lint(%s): %v", format, err)
	}
	return b.Bytes()
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./render -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (go test ./render -update rewrites it)\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

func TestLintFormats(t *testing.T) {
	want := []string{"text", "json", "sarif", "junit", "github"}
	if got := LintFormats(); !slices.Equal(got, want) {
		t.Fatalf("LintFormats() = %v, want %v", got, want)
	}
	// Every format renders both reports, twice the same, without touching the input.
	for _, format := range want {
		for _, rep := range []lint.Report{mixedReport(), emptyReport()} {
			before := slices.Clone(rep.Findings)
			a := render(t, format, rep, testOpts)
			b := render(t, format, rep, testOpts)
			if !bytes.Equal(a, b) {
				t.Errorf("%s: output not deterministic", format)
			}
			if !slices.Equal(before, rep.Findings) {
				t.Errorf("%s: renderer changed the findings", format)
			}
			if len(a) > 0 && a[len(a)-1] != '\n' || len(a) == 0 && format != "github" {
				t.Errorf("%s: output does not end in a newline", format)
			}
		}
	}
}

func TestLintUnknownFormat(t *testing.T) {
	var b bytes.Buffer
	err := Lint(&b, "yaml", mixedReport(), testOpts)
	if err == nil {
		t.Fatal("Lint(yaml) succeeded")
	}
	for _, f := range append(LintFormats(), `"yaml"`) {
		if !strings.Contains(err.Error(), f) {
			t.Errorf("error %q does not mention %s", err, f)
		}
	}
	if b.Len() != 0 {
		t.Errorf("wrote %q for an unknown format", b.String())
	}
}
