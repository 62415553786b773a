package main

import (
	"github.com/kubeplan/kubeplan/internal/benchkit"

	"github.com/kubeplan/kubeplan/lint"

	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestCRDSchemaFileFollowsKubeconformTemplate(t *testing.T) {
	if got := crdSchemaFile("example.com", "v1", "Widget"); got != "widget-example-v1.json" {
		t.Errorf("got %q", got)
	}
}

func TestStrictJSONSchema(t *testing.T) {
	s := lint.CRDToJSONSchema(widgetSchema())
	if s["additionalProperties"] != false {
		t.Errorf("root: additionalProperties = %v, want false", s["additionalProperties"])
	}
	props := s["properties"].(map[string]any)
	spec := props["spec"].(map[string]any)
	if spec["additionalProperties"] != false {
		t.Errorf("spec: additionalProperties = %v, want false", spec["additionalProperties"])
	}
	sp := spec["properties"].(map[string]any)
	if _, ok := sp["labels"].(map[string]any)["additionalProperties"].(map[string]any); !ok {
		t.Errorf("spec.labels: a string map must keep its additionalProperties schema")
	}
	if tp, _ := sp["owner"].(map[string]any)["type"].([]any); len(tp) != 2 || tp[1] != "null" {
		t.Errorf("spec.owner: nullable must add null to the type, got %v", sp["owner"])
	}
	status := props["status"].(map[string]any)
	if _, has := status["additionalProperties"]; has {
		t.Errorf("status preserves unknown fields, got additionalProperties")
	}

}

func TestParseOutputs(t *testing.T) {
	kc := `{"resources":[{"filename":"corpus/a.yaml","kind":"Deployment","name":"web","version":"apps/v1","status":"statusInvalid","msg":"bad"}],
	"summary":{"valid":9,"invalid":1,"errors":0,"skipped":0}}`
	kp := `{"version":1,"summary":{"errors":1,"warnings":1,"infos":0,"files":1,"objects":10},"findings":[
	{"file":"corpus/a.yaml","line":3,"column":5,"severity":"error","rule":"schema","message":"bad","object":"deployment.apps/web"},
	{"file":"corpus/a.yaml","line":9,"column":1,"severity":"warning","rule":"deprecated-api","message":"old","object":"service/web"}]}`
	a, err := parseKubeconform([]byte(kc), "corpus")
	if err != nil {
		t.Fatal(err)
	}
	b, err := parseKubeplan([]byte(kp), "corpus")
	if err != nil {
		t.Fatal(err)
	}
	key := objectKey("a.yaml", "deployment", "web")
	if !a.Objects[key] || !b.Objects[key] || len(a.Objects) != 1 || len(b.Objects) != 1 {
		t.Errorf("kubeconform %v, kubeplan %v; want only %q in both", a.Objects, b.Objects, key)
	}
	if !a.Files["a.yaml"] || !b.Files["a.yaml"] {
		t.Errorf("files: kubeconform %v, kubeplan %v", a.Files, b.Files)
	}
}

func TestCompare(t *testing.T) {
	s := func(wall time.Duration, rss int64) sample { return sample{Wall: wall, CPU: 2 * wall, MaxRSS: rss} }
	kc := []sample{s(1000*time.Millisecond, 100), s(2000*time.Millisecond, 100), s(1000*time.Millisecond, 100)}
	kp := []sample{s(400*time.Millisecond, 90), s(1200*time.Millisecond, 80), s(500*time.Millisecond, 100)}
	r := compare(kp, kc)
	if r.Wall != 0.5 { // pairs 0.4, 0.6, 0.5
		t.Errorf("paired wall ratio %v, want 0.5", r.Wall)
	}
	if r.RSS != 1 || !r.pass() {
		t.Errorf("RSS ratio %v pass %v, want 1 and PASS", r.RSS, r.pass())
	}
	if got := summarize(kc).MedianWall; got != time.Second {
		t.Errorf("median wall %v", got)
	}
}

func TestWriteDocReplacesOnlyItsSection(t *testing.T) {
	path := filepath.Join(t.TempDir(), "docs", "benchmarks.md")
	if err := benchkit.WriteDoc(path, sectionTitle, sectionTitle+"\n\nfirst\n"); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	text := string(b) + "\n## other\n\nkeep me\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := benchkit.WriteDoc(path, sectionTitle, sectionTitle+"\n\nsecond\n"); err != nil {
		t.Fatal(err)
	}
	b, _ = os.ReadFile(path)
	got := string(b)
	if strings.Contains(got, "first") || !strings.Contains(got, "second") || !strings.Contains(got, "## other\n\nkeep me") ||
		strings.Count(got, sectionTitle) != 1 || !strings.HasPrefix(got, "# Benchmarks") {
		t.Errorf("unexpected document:\n%s", got)
	}
}
