package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/manifest"
)

const yaml11Deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    monitoring: on
    tier: "on"
  annotations:
    sidecar.istio.io/inject: yes
    prometheus.io/scrape: "true"
spec:
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      hostNetwork: yes
      hostPID: true
      hostIPC: 'no'
      containers:
        - name: web
          image: nginx:1.30
          env:
            - {name: A, value: no}
            - {name: B, value: NO}
            - {name: C, value: 0755}
            - {name: D, value: 1e3}
            - {name: E, value: 1:20}
            - {name: F, value: true}
            - {name: G, value: 8080}
            - {name: H, value: "yes"}
            - {name: I, value: y}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: flags
data:
  cache: off
  debug: 'off'
`

// findingLines renders findings as "severity line:col rule message".
func findingLines(rep Report) []string {
	var out []string
	for _, f := range rep.Findings {
		out = append(out, fmt.Sprintf("%s %d:%d %s %s", f.Severity, f.Line, f.Col, f.Rule, f.Message))
	}
	return out
}

func TestYAML11Values(t *testing.T) {
	got := findingLines(lintSrc(t, yaml11Deployment, Options{}))
	want := []string{
		`error 6:17 yaml11-value metadata.labels.monitoring: YAML 1.1 (kubectl, Helm, Argo CD) reads the unquoted on as the boolean true, and a string is wanted here; quote it: "on"`,
		`error 9:30 yaml11-value metadata.annotations["sidecar.istio.io/inject"]: YAML 1.1 (kubectl, Helm, Argo CD) reads the unquoted yes as the boolean true, and a string is wanted here; quote it: "yes"`,
		`warning 18:20 yaml11-value spec.template.spec.hostNetwork: YAML 1.1 (kubectl, Helm) reads the unquoted yes as true, YAML 1.2 (kubeplan, kustomize) as the string "yes", which is no boolean; write true`,
		// quoted: no YAML reads a boolean, the schema check says so
		`error 20:16 schema spec.template.spec.hostIPC must be a boolean, not the string "no"`,
		`error 25:32 yaml11-value spec.template.spec.containers[0].env[0].value: YAML 1.1 (kubectl, Helm, Argo CD) reads the unquoted no as the boolean false, and a string is wanted here; quote it: "no"`,
		`error 26:32 yaml11-value spec.template.spec.containers[0].env[1].value: YAML 1.1 (kubectl, Helm, Argo CD) reads the unquoted NO as the boolean false, and a string is wanted here; quote it: "NO"`,
		`error 27:32 yaml11-value spec.template.spec.containers[0].env[2].value: YAML 1.1 (kubectl, Helm, Argo CD) reads the unquoted 0755 as the number 493, and a string is wanted here; quote it: "0755"`,
		`error 28:32 yaml11-value spec.template.spec.containers[0].env[3].value: YAML 1.1 (kubectl, Helm, Argo CD) reads the unquoted 1e3 as the number 1000, and a string is wanted here; quote it: "1e3"`,
		`error 29:32 yaml11-value spec.template.spec.containers[0].env[4].value: YAML 1.1 reads the unquoted 1:20 as the base-60 number 80, and a string is wanted here; quote it: "1:20"`,
		`error 30:32 yaml11-value spec.template.spec.containers[0].env[5].value: YAML 1.1 (kubectl, Helm, Argo CD) reads the unquoted true as the boolean true, and a string is wanted here; quote it: "true"`,
		// a number to every reader: the schema's finding
		`error 31:32 schema spec.template.spec.containers[0].env[6].value must be a string, not a number`,
		`error 33:32 yaml11-value spec.template.spec.containers[0].env[8].value: YAML 1.1 (kubectl, Helm, Argo CD) reads the unquoted y as the boolean true, and a string is wanted here; quote it: "y"`,
		`error 40:10 yaml11-value data.cache: YAML 1.1 (kubectl, Helm, Argo CD) reads the unquoted off as the boolean false, and a string is wanted here; quote it: "off"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

const yaml11CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                mode: {type: string}
                enabled: {type: boolean}
                port: {x-kubernetes-int-or-string: true}
                extra: {type: object, x-kubernetes-preserve-unknown-fields: true}
---
apiVersion: example.com/v1
kind: Widget
metadata:
  name: w
  labels: {lights: off}
spec:
  mode: on
  enabled: On
  port: 0x1F
  extra: {anything: yes}
`

// TestYAML11CustomResource checks a custom resource against its CRD's
// schema: labels are strings whatever the CRD says of metadata; an
// int-or-string and a field the schema leaves open are not checked.
func TestYAML11CustomResource(t *testing.T) {
	got := findingLines(lintSrc(t, yaml11CRD, Options{}))
	want := []string{
		`error 29:20 yaml11-value metadata.labels.lights: YAML 1.1 (kubectl, Helm, Argo CD) reads the unquoted off as the boolean false, and a string is wanted here; quote it: "off"`,
		`error 31:9 yaml11-value spec.mode: YAML 1.1 (kubectl, Helm, Argo CD) reads the unquoted on as the boolean true, and a string is wanted here; quote it: "on"`,
		`warning 32:12 yaml11-value spec.enabled: YAML 1.1 (kubectl, Helm) reads the unquoted On as true, YAML 1.2 (kubeplan, kustomize) as the string "On", which is no boolean; write true`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestYAML11RuleSettings checks the rule can be turned off like any other,
// and that a value it reports has no second finding to fall back on.
func TestYAML11RuleSettings(t *testing.T) {
	src := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: yes, b: 0755}\n"
	rep := lintSrc(t, src, Options{Rules: map[string]RuleSetting{ruleYAML11: {Off: true}}})
	if len(rep.Findings) != 0 {
		t.Errorf("with yaml11-value off: %v", findingLines(rep))
	}
	rep = lintSrc(t, src, Options{})
	if len(rep.Findings) != 2 || rep.Findings[0].Rule != ruleYAML11 || rep.Findings[1].Rule != ruleYAML11 {
		t.Errorf("got %v, want two yaml11-value findings", findingLines(rep))
	}
}

func TestYAML11Reading(t *testing.T) {
	cases := []struct{ in, kind, value string }{
		{"on", "boolean", "true"}, {"On", "boolean", "true"}, {"ON", "boolean", "true"},
		{"y", "boolean", "true"}, {"Yes", "boolean", "true"}, {"TRUE", "boolean", "true"},
		{"off", "boolean", "false"}, {"N", "boolean", "false"}, {"NO", "boolean", "false"},
		{"oN", "", ""}, {"yES", "", ""}, {"tRUE", "", ""},
		{"0755", "number", "493"}, {"-017", "number", "-15"}, {"0x1F", "number", "31"},
		{"0b101", "number", "5"}, {"1_000", "number", "1000"}, {"1e3", "number", "1000"},
		{"1:20", "number", "80"}, {"190:20:30", "number", "685230"}, {"1:20.5", "number", "80.5"},
		{".inf", "number", "Inf"}, {"-.Inf", "number", "-Inf"}, {".NaN", "number", "NaN"},
		{"8080", "number", "8080"}, {"1.5", "number", "1.5"},
		{"1.2.3", "", ""}, {"0759", "number", "759"}, // go-yaml v2 reads it as a float {"1:60", "", ""}, {"10:30pm", "", ""}, {"500m", "", ""},
		{"nginx:1.30", "", ""}, {"", "", ""},
	}
	for _, c := range cases {
		if k, v := yaml11Reading(c.in); k != c.kind || v != c.value {
			t.Errorf("yaml11Reading(%q) = %q, %q; want %q, %q", c.in, k, v, c.kind, c.value)
		}
	}
}

// TestYAML11CleanObjectIsFree holds the rule's cost on a clean object (the
// common case: quoted "true" and "8080" are strings to every reader, only
// a yes/no/on/off or a base-60 number needs a look at the source) to one
// walk of its content: no allocation, so no schema lookup and no source
// tree built.
func TestYAML11CleanObjectIsFree(t *testing.T) {
	src := "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels: {app: web}\n" +
		"  annotations: {prometheus.io/scrape: \"true\", note: \"1.30\"}\nspec:\n  replicas: 3\n" +
		"  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n" +
		"    spec:\n      containers:\n        - name: web\n          image: nginx:1.30\n" +
		"          env: [{name: A, value: \"false\"}, {name: B, value: \"8080\"}]\n"
	objs, probs := manifest.Parse("clean.yaml", []byte(src))
	if len(objs) != 1 || len(probs) != 0 {
		t.Fatalf("objects %d, problems %v", len(objs), probs)
	}
	l, err := newLinter(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if fs := l.yaml11Check(objs[0], apiBuiltin, nil); len(fs) != 0 {
		t.Fatalf("findings on a clean object: %v", fs)
	}
	if n := testing.AllocsPerRun(100, func() { l.yaml11Check(objs[0], apiBuiltin, nil) }); n != 0 {
		t.Errorf("yaml11Check allocates %v times on a clean object, want 0", n)
	}
}

func BenchmarkYAML11Check(b *testing.B) {
	var sb strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&sb, "---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web%d\n  labels: {app: web}\n"+
			"spec:\n  template:\n    spec:\n      containers:\n        - name: web\n          image: nginx:1.30\n"+
			"          env:\n            - name: A\n              value: hello\n            - name: B\n              value: \"8080\"\n", i)
	}
	objs, _ := manifest.Parse("bench.yaml", []byte(sb.String()))
	l, err := newLinter(Options{})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		for _, o := range objs {
			l.yaml11Check(o, apiBuiltin, nil)
		}
	}
}

// TestYAML11Kustomize checks values of a kustomization's objects are
// judged as written where they were set: in the base, or in an overlay's
// patch.
func TestYAML11Kustomize(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"base/kustomization.yaml": "resources:\n- cm.yaml\n",
		"base/cm.yaml":            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: flags\ndata:\n  cache: off\n  quoted: \"on\"\n",
		"prod/kustomization.yaml": "resources:\n- ../base\npatches:\n- path: patch.yaml\n",
		"prod/patch.yaml":         "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: flags\ndata:\n  debug: yes\n  quoted: 'no'\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	rep, _, err := Check(Input{Paths: []string{filepath.Join(dir, "prod")}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range rep.Findings {
		rel, _ := filepath.Rel(dir, f.File)
		got = append(got, fmt.Sprintf("%s:%d:%d %s %s", filepath.ToSlash(rel), f.Line, f.Col, f.Rule, f.Field))
	}
	want := []string{"base/cm.yaml:6:10 yaml11-value data.cache", "prod/patch.yaml:6:10 yaml11-value data.debug"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
