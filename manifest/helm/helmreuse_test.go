package helm_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/manifest/helm"
)

// publicChart is the vendored kube-prometheus-stack (with its subcharts
// and 10 CRDs): its grafana subchart generates the admin password, so it
// renders twice.
const publicChart = "../../testdata/charts/public/kube-prometheus-stack"

// keptByObject is the Kept fields of each object, by kind and name.
func keptByObject(objs []*manifest.Object) map[string][]manifest.KeptField {
	out := map[string][]manifest.KeptField{}
	for _, o := range objs {
		out[o.Kind+"/"+o.Namespace+"/"+o.Name] = o.Kept
	}
	return out
}

// The renders that find generated fields parse only the templates whose
// output changed and reuse the first render's other objects: the Kept
// fields are the ones a full parse of every render finds.
func TestHelmKeptReusesUnchangedTemplates(t *testing.T) {
	opts := helm.Options{ReleaseName: "kps", Namespace: "monitoring"}
	before := helm.HelmRenders.Load()
	reused := loadChartT(t, publicChart, opts)
	if n := helm.HelmRenders.Load() - before; n != 2 {
		t.Errorf("%d renders, want 2 (grafana generates its admin password)", n)
	}
	*helm.ReuseFirst = false
	defer func() { *helm.ReuseFirst = true }()
	full := loadChartT(t, publicChart, opts)

	if len(reused.Objects) != 132 || len(full.Objects) != 132 {
		t.Fatalf("%d and %d objects, want the 132 helm template --include-crds --skip-tests renders", len(reused.Objects), len(full.Objects))
	}
	got, want := keptByObject(reused.Objects), keptByObject(full.Objects)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Kept with reuse differs from a full parse:\n%v\n%v", got, want)
	}
	secret := got["Secret/monitoring/kps-grafana"]
	if fmt.Sprint(secret) != fmt.Sprint([]manifest.KeptField{{Path: []string{"data", "admin-password"}, Reason: manifest.KeptGenerated}}) {
		t.Errorf("the grafana Secret keeps %v, want its generated data.admin-password", secret)
	}
	deploy := got["Deployment/monitoring/kps-grafana"]
	if fmt.Sprint(deploy) != fmt.Sprint([]manifest.KeptField{{Path: []string{"spec", "template", "metadata", "annotations", "checksum/secret"}, Reason: manifest.KeptGenerated}}) {
		t.Errorf("the grafana Deployment keeps %v, want the checksum of the generated Secret", deploy)
	}
	for k, kept := range got {
		if len(kept) > 0 && k != "Secret/monitoring/kps-grafana" && k != "Deployment/monitoring/kps-grafana" {
			t.Errorf("%s keeps %v: only the grafana Secret and Deployment hold generated fields", k, kept)
		}
	}
	if !reflect.DeepEqual(problemTexts(reused.Problems), problemTexts(full.Problems)) {
		t.Errorf("problems differ:\n%v\n%v", problemTexts(reused.Problems), problemTexts(full.Problems))
	}
}

func problemTexts(ps []*manifest.Problem) []string {
	var out []string
	for _, p := range ps {
		out = append(out, fmt.Sprintf("%s:%d:%d %s %s", p.File, p.Pos.Line, p.Pos.Col, p.Rule, p.Message))
	}
	return out
}

// Only a template that names a generating function as a word is parsed
// for its calls: "now" inside "unknown" is none.
func TestHelmMentionsGeneratingAsAWord(t *testing.T) {
	for text, want := range map[string]bool{
		`{{ now | date "2006" }}`:            true,
		`{{- (randAlphaNum 16) | b64enc }}`:  true,
		`x: {{ .Values.x | default (now) }}`: true,
		`status: unknown`:                    false,
		`# nowhere, known, snow`:             false,
		`{{ .Values.x_now }}`:                false,
		`{{ .Values.nowé }}`:                 false,
		`{{ include "randAlphaNum2" . }}`:    false,
		`{{ uuidv4 }}`:                       true,
	} {
		if got := helm.MentionsGen(text); got != want {
			t.Errorf("%q: %v, want %v", text, got, want)
		}
	}
}

// A generating function's name outside every action is text, not a call.
func TestHelmMentionsGeneratingInActions(t *testing.T) {
	for text, want := range map[string]bool{
		`"from": "now-6h", "to": "now"`:                             false,
		`{{ .Values.x }} "from": "now-6h"`:                          false,
		`{{ .Values.x }} "from": "{{ now | date "2006" }}"`:         true,
		`{{ printf "}}" | randAlphaNum }}`:                          true, // a "}}" in a quoted string: cannot tell
		"{{ `}}` | uuidv4 }}":                                       true,
		"{{- if .Values.x }}\n  a: {{ randAlphaNum 5 }}\n{{ end }}": true,
		`{{/* now */}}`:                                             true, // a comment: parsed, no call found
	} {
		if got := helm.MentionsGen(text); got != want {
			t.Errorf("%q: %v, want %v", text, got, want)
		}
	}
}
