package render

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/kubeplan/kubeplan/lint"
)

// testdata/sarif-schema-2.1.0.json is the official OASIS SARIF 2.1.0 schema
// (errata01, OASIS Standard), copied unchanged from
// github.com/oasis-tcs/sarif-spec, sarif-2.1/schema/sarif-schema-2.1.0.json
// at commit e0583813964ec43cea53b6b531b402866095ed1f.
const sarifSchemaFile = "testdata/sarif-schema-2.1.0.json"

func sarifSchemaValidator(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(sarifSchemaFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	const url = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

func validateSARIF(t *testing.T, sch *jsonschema.Schema, out []byte) error {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	return sch.Validate(v)
}

func TestSARIFGolden(t *testing.T) {
	golden(t, "lint.sarif.golden", render(t, "sarif", mixedReport(), testOpts))
	golden(t, "lint-empty.sarif.golden", render(t, "sarif", emptyReport(), LintOptions{}))
}

func TestSARIFValidatesAgainstSchema(t *testing.T) {
	sch := sarifSchemaValidator(t)
	for name, out := range map[string][]byte{
		"mixed":         render(t, "sarif", mixedReport(), testOpts),
		"empty":         render(t, "sarif", emptyReport(), testOpts),
		"no options":    render(t, "sarif", mixedReport(), LintOptions{}),
		"zero report":   render(t, "sarif", lint.Report{}, LintOptions{}),
		"absolute path": render(t, "sarif", lint.Report{Findings: []lint.Finding{{File: "/src/a b.yaml", Rule: "r", Message: "m"}}}, LintOptions{}),
	} {
		if err := validateSARIF(t, sch, out); err != nil {
			t.Errorf("%s: SARIF output does not validate: %v\n%s", name, err, out)
		}
	}
}

// TestSARIFSchemaRejects proves the schema check has teeth: outputs that
// break SARIF rules we rely on must fail validation.
func TestSARIFSchemaRejects(t *testing.T) {
	sch := sarifSchemaValidator(t)
	for name, edit := range map[string]func(map[string]any){
		"startLine 0":        func(r map[string]any) { region(r)["startLine"] = 0 },
		"level fatal":        func(r map[string]any) { r["level"] = "fatal" },
		"uri with backslash": func(r map[string]any) { artifact(r)["uri"] = `apps\web.yaml` },
		"unknown property":   func(r map[string]any) { r["severity"] = "error" },
	} {
		var log map[string]any
		if err := json.Unmarshal(render(t, "sarif", mixedReport(), testOpts), &log); err != nil {
			t.Fatal(err)
		}
		edit(sarifResults(log)[0].(map[string]any))
		out, _ := json.Marshal(log)
		if err := validateSARIF(t, sch, out); err == nil {
			t.Errorf("%s: schema accepted a broken log", name)
		}
	}
}

func sarifResults(log map[string]any) []any {
	return log["runs"].([]any)[0].(map[string]any)["results"].([]any)
}

func physical(r map[string]any) map[string]any {
	return r["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)
}
func region(r map[string]any) map[string]any { return physical(r)["region"].(map[string]any) }
func artifact(r map[string]any) map[string]any {
	return physical(r)["artifactLocation"].(map[string]any)
}

func TestSARIFContent(t *testing.T) {
	rep := mixedReport()
	var log struct {
		Schema  string `json:"$schema"`
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name, InformationURI, Version string
					Rules                         []struct {
						ID                   string
						HelpURI              string
						DefaultConfiguration *struct{ Level string }
					}
				}
			}
			Results []struct {
				RuleID    string
				RuleIndex int
				Level     string
				Message   struct{ Text string }
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI, URIBaseID string }
						Region           struct{ StartLine, StartColumn, EndLine, EndColumn int }
					}
				}
				Properties map[string]string
			}
		}
	}
	if err := json.Unmarshal(render(t, "sarif", rep, testOpts), &log); err != nil {
		t.Fatal(err)
	}
	if log.Schema != "https://json.schemastore.org/sarif-2.1.0.json" || log.Version != "2.1.0" || len(log.Runs) != 1 {
		t.Fatalf("header: $schema=%q version=%q runs=%d", log.Schema, log.Version, len(log.Runs))
	}
	run := log.Runs[0]
	d := run.Tool.Driver
	if d.Name != "kubeplan" || d.Version != "0.1.0" || d.InformationURI != InformationURI {
		t.Errorf("driver = %+v", d)
	}
	var ids []string
	for _, r := range d.Rules {
		ids = append(ids, r.ID)
	}
	wantIDs := []string{"custom-cel", "deprecated-api", "no-latest-tag", "parse", "run-as-non-root", "schema"}
	if !slices.Equal(ids, wantIDs) {
		t.Errorf("rules = %v, want %v", ids, wantIDs)
	}
	if r := d.Rules[5]; r.HelpURI == "" || r.DefaultConfiguration == nil || r.DefaultConfiguration.Level != "error" {
		t.Errorf("schema rule = %+v", r)
	}
	if r := d.Rules[3]; r.DefaultConfiguration != nil {
		t.Errorf("parse rule is unknown but has a default level: %+v", r)
	}

	if len(run.Results) != len(rep.Findings) {
		t.Fatalf("%d results for %d findings", len(run.Results), len(rep.Findings))
	}
	levels := map[lint.Severity]string{lint.Error: "error", lint.Warning: "warning", lint.Info: "note"}
	for i, r := range run.Results {
		f := rep.Findings[i]
		if r.RuleID != f.Rule || d.Rules[r.RuleIndex].ID != f.Rule {
			t.Errorf("result %d: ruleId %q ruleIndex %d, want %q", i, r.RuleID, r.RuleIndex, f.Rule)
		}
		if r.Level != levels[f.Severity] || r.Message.Text != f.Message {
			t.Errorf("result %d: level %q message %q", i, r.Level, r.Message.Text)
		}
		if r.Properties["object"] != f.Object || r.Properties["namespace"] != f.Namespace || r.Properties["field"] != f.Field {
			t.Errorf("result %d: properties %v", i, r.Properties)
		}
		loc := r.Locations[0].PhysicalLocation
		if loc.ArtifactLocation.URIBaseID != "%SRCROOT%" {
			t.Errorf("result %d: uriBaseId %q", i, loc.ArtifactLocation.URIBaseID)
		}
		want := struct{ StartLine, StartColumn, EndLine, EndColumn int }{max(f.Line, 1), max(f.Col, 1), f.EndLine, f.EndCol}
		if loc.Region != want {
			t.Errorf("result %d: region %+v, want %+v", i, loc.Region, want)
		}
	}
}

func TestSARIFURI(t *testing.T) {
	for in, want := range map[string]string{
		"apps/web.yaml":    "apps/web.yaml",
		"./apps//web.yaml": "apps/web.yaml",
		"my dir/cm.yaml":   "my%20dir/cm.yaml",
		"a:b.yaml":         "./a:b.yaml",
		"100%.yaml":        "100%25.yaml",
		`apps\web.yaml`:    "apps%5Cweb.yaml",
		"/src/a b.yaml":    "file:///src/a%20b.yaml",
	} {
		if got := sarifURI(in); got != want {
			t.Errorf("sarifURI(%q) = %q, want %q", in, got, want)
		}
	}
}
