package plan

import (
	"errors"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kubeplan/kubeplan/manifest"
)

func TestFieldName(t *testing.T) {
	obj := map[string]any{"spec": map[string]any{"containers": []any{map[string]any{"env": []any{nil, map[string]any{"value": "x"}}}}},
		"data": map[string]any{"tls.crt": "c", "0": "zero"}}
	for path, want := range map[string]string{
		"spec containers 0 env 1 value": "spec.containers[0].env[1].value",
		"data tls.crt":                  `data["tls.crt"]`,
		"data 0":                        "data.0",
	} {
		if got := fieldName(obj, strings.Fields(path)); got != want {
			t.Errorf("fieldName(%s) = %s, want %s", path, got, want)
		}
	}
	if v, ok := getPath(obj, []string{"spec", "containers", "0", "env", "1", "value"}); !ok || v != "x" {
		t.Errorf("getPath through lists: %v %v", v, ok)
	}
	if _, ok := getPath(obj, []string{"spec", "containers", "3"}); ok {
		t.Error("getPath past a list's end")
	}
	if setPath(obj, []string{"nothing", "here"}, 1) {
		t.Error("setPath without a parent")
	}
}

func TestKeepLiveValues(t *testing.T) {
	want := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Secret",
		"metadata":   map[string]any{"name": "db"},
		"stringData": map[string]any{"password": "new-random", "fresh": "rendered"},
		"data":       map[string]any{"copy": "placeholder"}}}
	live := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Secret",
		"metadata": map[string]any{"name": "db"},
		"data":     map[string]any{"password": "b2xkLXBhc3N3b3Jk", "copy": "bGl2ZS1jb3B5"}}}
	src := &manifest.Object{Kept: []manifest.KeptField{
		{Path: []string{"stringData", "password"}, Reason: manifest.KeptGenerated},
		{Path: []string{"stringData", "fresh"}, Reason: manifest.KeptGenerated},
		{Path: []string{"data", "copy"}, Reason: manifest.KeptLookedUp},
	}}
	tg := &target{obj: want, src: src}
	p := &planner{}
	if err := p.keep([]*target{tg}, map[*target]*unstructured.Unstructured{tg: live}); err != nil {
		t.Fatal(err)
	}
	sd := want.Object["stringData"].(map[string]any)
	if sd["password"] != "old-password" || sd["fresh"] != "rendered" || want.Object["data"].(map[string]any)["copy"] != "bGl2ZS1jb3B5" {
		t.Errorf("kept: %v", want.Object)
	}
	if len(tg.kept) != 2 || tg.kept[0].Field != "stringData.password" || !tg.kept[0].Live || tg.kept[1].Reason != manifest.KeptLookedUp || !tg.kept[1].Live {
		t.Errorf("kept fields: %+v", tg.kept)
	}

	// A looked-up value in a name is refused; a generated one is not kept.
	named := &target{obj: &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": "x"}}},
		src: &manifest.Object{Kept: []manifest.KeptField{{Path: []string{"metadata", "name"}, Reason: manifest.KeptLookedUp}}}}
	if err := p.keep([]*target{named}, nil); err == nil || !strings.Contains(err.Error(), "never put a Secret's value in an object's name") {
		t.Errorf("a looked-up name: %v", err)
	}
	named.src.Kept[0].Reason = manifest.KeptGenerated
	named.kept = nil
	if err := p.keep([]*target{named}, nil); err != nil || len(named.kept) != 0 {
		t.Errorf("a generated name: %v %+v", err, named.kept)
	}
}

func TestDiffKeptHides(t *testing.T) {
	kept := []Kept{{Field: "data.value", Path: []string{"data", "value"}, Reason: manifest.KeptLookedUp}}
	live := map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "c"}, "data": map[string]any{"value": "canary-live", "other": "one"}}
	want := map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "c"}, "data": map[string]any{"value": "canary-new", "other": "one"}}
	d := diffKept(live, want, kept)
	if strings.Contains(d, "canary") || !strings.Contains(d, "-  value: "+HiddenLookup+" (before)") || !strings.Contains(d, "+  value: "+HiddenLookup+" (after)") {
		t.Errorf("a changed looked-up value:\n%s", d)
	}
	want["data"].(map[string]any)["value"] = "canary-live"
	want["data"].(map[string]any)["other"] = "two"
	if d := diffKept(live, want, kept); strings.Contains(d, "canary") || !strings.Contains(d, "   value: "+HiddenLookup+"\n") {
		t.Errorf("context beside a looked-up value:\n%s", d)
	}
	if d := diffKept(nil, want, kept); strings.Contains(d, "canary") || !strings.Contains(d, "+  value: "+HiddenLookup) {
		t.Errorf("a create:\n%s", d)
	}
	if live["data"].(map[string]any)["value"] != "canary-live" {
		t.Error("diffKept changed its argument")
	}
	ds := []Drift{{Field: "data.value", Live: "canary-live", Want: "x"}, {Field: "metadata.annotations.copy", Live: "a canary-live copy", Want: "y"}, {Field: "spec.replicas", Live: "3", Want: "2"}}
	hideDrift(ds, kept, live)
	if ds[0].Live != HiddenLookup || ds[1].Live != HiddenLookup || ds[2].Live != "3" {
		t.Errorf("drift: %+v", ds)
	}
	if o := withheld(want, kept); o["data"].(map[string]any)["value"] != HiddenLookup || want["data"].(map[string]any)["value"] != "canary-live" {
		t.Errorf("withheld: %v", o)
	}
}

func TestHideKeptInError(t *testing.T) {
	tg := &target{obj: &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"labels": map[string]any{"copy": "canary value!"}}}},
		kept: []Kept{{Field: "metadata.labels.copy", Path: []string{"metadata", "labels", "copy"}, Reason: manifest.KeptLookedUp}}}
	err := hideKeptIn(errors.New(`metadata.labels: Invalid value: "canary value!": a valid label must be ...`), tg)
	if strings.Contains(err.Error(), "canary") || !strings.Contains(err.Error(), HiddenLookup) {
		t.Errorf("%v", err)
	}
	plain := errors.New("the server refused it")
	if hideKeptIn(plain, tg) != plain {
		t.Error("an error without the value was changed")
	}
}
