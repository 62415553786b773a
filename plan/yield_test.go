package plan

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/config"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func jsonMap(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return m
}

func mustPath(t *testing.T, s string) config.YieldPath {
	t.Helper()
	p, err := config.ParseYieldPath(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func asJSON(v any) string { b, _ := json.Marshal(v); return string(b) }

const twoContainers = `{"spec":{"replicas":2,"template":{"spec":{"containers":[
 {"name":"app","image":"app:1","resources":{"limits":{"cpu":"1"}}},
 {"name":"side","image":"side:1","resources":{"limits":{"cpu":"2"}}}]}}}}`

// A path's fields kubeplan does not own are taken out; with [*] in every
// item, with [name=...] in that item only.
func TestYieldPathDropsUnowned(t *testing.T) {
	for _, tc := range []struct{ path, want string }{
		{"spec.replicas", `{"spec":{"template":{"spec":{"containers":[{"image":"app:1","name":"app","resources":{"limits":{"cpu":"1"}}},{"image":"side:1","name":"side","resources":{"limits":{"cpu":"2"}}}]}}}}`},
		{"spec.template.spec.containers[*].resources", `{"spec":{"replicas":2,"template":{"spec":{"containers":[{"image":"app:1","name":"app"},{"image":"side:1","name":"side"}]}}}}`},
		{"spec.template.spec.containers[name=side].resources.limits", `{"spec":{"replicas":2,"template":{"spec":{"containers":[{"image":"app:1","name":"app","resources":{"limits":{"cpu":"1"}}},{"image":"side:1","name":"side","resources":{}}]}}}}`},
		{"spec.template.spec.containers[name=side]", `{"spec":{"replicas":2,"template":{"spec":{"containers":[{"image":"app:1","name":"app","resources":{"limits":{"cpu":"1"}}}]}}}}`},
		{"spec.nothing.here", asJSON(jsonMap(t, twoContainers))},
	} {
		obj := jsonMap(t, twoContainers)
		yieldPath(obj, nil, false, nil, mustPath(t, tc.path))
		if got := asJSON(obj); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.path, got, tc.want)
		}
	}
}

// While kubeplan's apply still owns a yielded field, its live value is
// sent, matched by the list item's keys, not its position.
func TestYieldPathKeepsOwnedWithLiveValue(t *testing.T) {
	obj := jsonMap(t, twoContainers)
	live := jsonMap(t, `{"spec":{"replicas":7,"template":{"spec":{"containers":[
 {"name":"side","image":"side:1","resources":{"limits":{"cpu":"9"}}},
 {"name":"app","image":"app:1","resources":{"limits":{"cpu":"5"}}}]}}}}`)
	own := jsonMap(t, `{"f:spec":{"f:replicas":{},"f:template":{"f:spec":{"f:containers":{
 "k:{\"name\":\"app\"}":{".":{},"f:name":{},"f:resources":{"f:limits":{"f:cpu":{}}}},
 "k:{\"name\":\"side\"}":{".":{},"f:name":{}}}}}}}`)
	yieldPath(obj, own, true, live, mustPath(t, "spec.replicas"))
	yieldPath(obj, own, true, live, mustPath(t, "spec.template.spec.containers[*].resources"))
	want := `{"spec":{"replicas":7,"template":{"spec":{"containers":[{"image":"app:1","name":"app","resources":{"limits":{"cpu":"5"}}},{"image":"side:1","name":"side"}]}}}}`
	if got := asJSON(obj); got != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
}

// A manager rule takes out what that manager owns and kubeplan does not;
// a field both own stays, and an item only the other manager has goes.
func TestDropOthers(t *testing.T) {
	obj := jsonMap(t, `{"metadata":{"annotations":{"a":"1","b":"2"}},"spec":{"replicas":2,"template":{"spec":{"containers":[
 {"name":"app","image":"app:1","resources":{"limits":{"cpu":"1"},"requests":{"cpu":"1"}}},
 {"name":"side","image":"side:1"}]}}}}`)
	other := jsonMap(t, `{"f:metadata":{"f:annotations":{"f:b":{}}},"f:spec":{"f:replicas":{},"f:template":{"f:spec":{"f:containers":{
 "k:{\"name\":\"app\"}":{"f:resources":{"f:limits":{"f:cpu":{}},"f:requests":{"f:cpu":{}}}},
 "k:{\"name\":\"side\"}":{".":{},"f:name":{},"f:image":{}}}}}}}`)
	own := jsonMap(t, `{"f:metadata":{"f:annotations":{"f:a":{}}},"f:spec":{"f:replicas":{},"f:template":{"f:spec":{"f:containers":{
 "k:{\"name\":\"app\"}":{".":{},"f:name":{},"f:image":{},"f:resources":{"f:requests":{"f:cpu":{}}}}}}}}}`)
	dropOthers(obj, other, own)
	want := `{"metadata":{"annotations":{"a":"1"}},"spec":{"replicas":2,"template":{"spec":{"containers":[{"image":"app:1","name":"app","resources":{"requests":{"cpu":"1"}}}]}}}}`
	if got := asJSON(obj); got != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
}

// Every name of config.YieldBuiltins has its rules here, and no other.
func TestBuiltinRulesNamed(t *testing.T) {
	if len(builtinRules) != len(config.YieldBuiltins) {
		t.Errorf("builtinRules has %d names, config.YieldBuiltins %d", len(builtinRules), len(config.YieldBuiltins))
	}
	for _, n := range config.YieldBuiltins {
		if _, ok := builtinRules[n]; !ok {
			t.Errorf("no built-in rules for %q", n)
		}
	}
}

// A KEDA ScaledObject in the set scales its target: a Deployment by
// default.
func TestScaledObjectTarget(t *testing.T) {
	for _, tc := range []struct {
		obj  string
		want string
	}{
		{`{"apiVersion":"keda.sh/v1alpha1","kind":"ScaledObject","metadata":{"name":"s","namespace":"shop"},"spec":{"scaleTargetRef":{"name":"web"}}}`, "Deployment/shop/web"},
		{`{"apiVersion":"keda.sh/v1alpha1","kind":"ScaledObject","metadata":{"name":"s","namespace":"shop"},"spec":{"scaleTargetRef":{"name":"db","kind":"StatefulSet"}}}`, "StatefulSet/shop/db"},
		{`{"apiVersion":"keda.sh/v1alpha1","kind":"ScaledObject","metadata":{"name":"s","namespace":"shop"},"spec":{"scaleTargetRef":{"name":"x","kind":"Rollout","apiVersion":"argoproj.io/v1alpha1"}}}`, ""},
		{`{"apiVersion":"example.com/v1","kind":"ScaledObject","metadata":{"name":"s"},"spec":{"scaleTargetRef":{"name":"web"}}}`, ""},
	} {
		u := &unstructured.Unstructured{Object: jsonMap(t, tc.obj)}
		w, ok := scaledObjectTarget(u)
		got := ""
		if ok {
			got = w.Kind + "/" + w.Namespace + "/" + w.Name
		}
		if got != tc.want {
			t.Errorf("%s: %q, want %q", tc.obj, got, tc.want)
		}
	}
}

// docs/yield.md describes every built-in rule.
func TestBuiltinRulesDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "yield.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range config.YieldBuiltins {
		if !strings.Contains(string(doc), "| `"+n+"` |") {
			t.Errorf("docs/yield.md has no row for the built-in rule %q", n)
		}
	}
}
