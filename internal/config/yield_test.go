package config

import (
	"strings"
	"testing"
)

func TestParseYieldPath(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want YieldPath
	}{
		{"spec.replicas", YieldPath{{Field: "spec"}, {Field: "replicas"}}},
		{"spec.template.spec.containers[*].resources", YieldPath{{Field: "spec"}, {Field: "template"}, {Field: "spec"}, {Field: "containers"}, {All: true}, {Field: "resources"}}},
		{"spec.containers[name=app].image", YieldPath{{Field: "spec"}, {Field: "containers"}, {Key: "name", Value: "app"}, {Field: "image"}}},
		{`spec.containers[name="a.b"]`, YieldPath{{Field: "spec"}, {Field: "containers"}, {Key: "name", Value: "a.b"}}},
		{`metadata.annotations["example.com/x"]`, YieldPath{{Field: "metadata"}, {Field: "annotations"}, {Field: "example.com/x"}}},
		{"webhooks[*].clientConfig.caBundle", YieldPath{{Field: "webhooks"}, {All: true}, {Field: "clientConfig"}, {Field: "caBundle"}}},
	} {
		got, err := ParseYieldPath(tc.in)
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		if len(got) != len(tc.want) {
			t.Errorf("%s: got %+v, want %+v", tc.in, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s: step %d: got %+v, want %+v", tc.in, i, got[i], tc.want[i])
			}
		}
		if s := got.String(); s != tc.in {
			t.Errorf("%s: String() = %s", tc.in, s)
		}
	}
	for _, bad := range []string{"", ".spec", "spec.", "spec..replicas", "spec[", "[*].x", "spec.containers[]", "spec.containers[name=]", "spec*", "spec.containers[*]x", `spec["a`} {
		if _, err := ParseYieldPath(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestParseYield(t *testing.T) {
	c, err := Parse("kubeplan.yaml", []byte(`yield:
  - kind: Deployment
    group: apps
    paths: [spec.replicas, "spec.template.spec.containers[*].resources"]
  - manager: vpa-*
    kinds: [Deployment]
yieldDefaults: {ca-injectors: false}
defaults:
  yield: [{manager: keda-operator}]
projects:
  - name: web
    path: web
    yield:
      - {kind: Service, paths: [spec.ports]}
  - name: db
    path: db
`))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Yield) != 2 || c.Yield[0].Kind != "Deployment" || !c.Yield[0].GroupSet || len(c.Yield[0].Paths) != 2 || c.Yield[1].Manager != "vpa-*" {
		t.Fatalf("yield = %+v", c.Yield)
	}
	if c.Yield[0].At != (Pos{2, 5}) {
		t.Errorf("rule at %v, want 2:5", c.Yield[0].At)
	}
	if !c.Yield[1].MatchesManager("vpa-recommender") || c.Yield[1].MatchesManager("kubectl") || !c.Yield[1].MatchesKind("apps", "Deployment") || c.Yield[1].MatchesKind("", "Service") {
		t.Error("manager rule matching is wrong")
	}
	if !c.Yield[0].MatchesKind("apps", "Deployment") || c.Yield[0].MatchesKind("example.com", "Deployment") {
		t.Error("path rule matching is wrong")
	}
	web := c.ProjectYield(&c.Projects[0])
	if len(web.Rules) != 4 || web.Rules[3].Kind != "Service" || web.Rules[2].Manager != "keda-operator" {
		t.Errorf("web's rules = %+v", web.Rules)
	}
	if db := c.ProjectYield(&c.Projects[1]); len(db.Rules) != 3 {
		t.Errorf("db's rules = %+v", db.Rules)
	}
	if web.BuiltinOn("ca-injectors") || !web.BuiltinOn("autoscalers") {
		t.Errorf("built-ins: %+v", web)
	}
	c, err = Parse("kubeplan.yaml", []byte("yieldDefaults: false\n"))
	if err != nil || c.ProjectYield(nil).BuiltinOn("autoscalers") {
		t.Errorf("yieldDefaults: false leaves autoscalers on (%v)", err)
	}
}

func TestParseYieldErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"yield: {kind: Deployment}\n", "kubeplan.yaml:1:8: yield: want a list of rules"},
		{"yield:\n  - kind: Deployment\n    paths: [spec.replicas, \"spec[\"]\n", `kubeplan.yaml:3:28: yield[0].paths[1]: bad path "spec["`},
		{"yield:\n  - kind: Deployment\n    pahts: [spec.replicas]\n", "kubeplan.yaml:3:5"},
		{"yield:\n  - kind: Deployment\n", "kubeplan.yaml:2:5: yield[0]: want kind and paths"},
		{"yield:\n  - {manager: x, paths: [spec.replicas]}\n", "kubeplan.yaml:2:5: yield[0]: a rule names fields by kind and paths, or by manager"},
		{"yield:\n  - {manager: \"x[\"}\n", "yield[0].manager: bad glob"},
		{"yield:\n  - {kind: Deployment, kinds: [Service], paths: [spec]}\n", "only a manager rule takes kinds"},
		{"yieldDefaults: {hpa: false}\n", `kubeplan.yaml:1:17: yieldDefaults: unknown built-in rule "hpa"`},
		{"yieldDefaults: maybe\n", "kubeplan.yaml:1:16"},
		{"yield:\n  - {manager: vpa, kinds: [Deployment, pods]}\n", `yield[0].kinds[1]: want a kind`},
		{"yield:\n  - {kind: deployments, paths: [spec.replicas]}\n", `kubeplan.yaml:2:5: yield[0].kind: want a kind as manifests write it (Deployment, ConfigMap), got "deployments"`},
		{"yield:\n  - {kind: Deployment, group: apps/v1, paths: [spec.replicas]}\n", `yield[0].group: want the API group without its version`},
		{"projects:\n  - path: web\n    yield:\n      - {kind: Service, paths: [\"spec.ports[x]\"]}\n", `kubeplan.yaml:4:33: projects[0].yield[0].paths[0]: bad path`},
	} {
		_, err := Parse("kubeplan.yaml", []byte(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %q", tc.in, err, tc.want)
		}
	}
}
