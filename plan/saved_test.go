package plan

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestSaveLoad(t *testing.T) {
	p := &Plan{Version: FormatVersion, Namespace: "store", FieldManager: "kubeplan",
		Parent: &Parent{Ref: Ref{Version: "v1", Kind: "ConfigMap", Name: "set", Namespace: "store"}, ID: "applyset-x-v1", Exists: true, ResourceVersion: "7"},
		Changes: []Change{{Ref: Ref{Group: "apps", Version: "v1", Kind: "Deployment", Namespace: "store", Name: "web"}, Action: Update,
			LiveResourceVersion: "42", Object: map[string]any{"apiVersion": "apps/v1", "kind": "Deployment"}}}}
	path := filepath.Join(t.TempDir(), "plan.json")
	if err := Save(path, p); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("plan file mode %v, want 0600", fi.Mode().Perm())
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, p) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, p)
	}
	os.WriteFile(path, []byte(`{"kind":"KubeplanPlan","version":99,"changes":[]}`), 0o600)
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), "version 99") {
		t.Errorf("future version: %v", err)
	}
	os.WriteFile(path, []byte(`{"hello":1}`), 0o600)
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), "not a kubeplan plan file") {
		t.Errorf("foreign file: %v", err)
	}
}

// A saved plan is recognised by its content under any name; manifests
// (YAML or JSON) and directories are not plans.
func TestDetectByContent(t *testing.T) {
	dir := t.TempDir()
	p := &Plan{Version: FormatVersion, Namespace: "store", Changes: []Change{{Ref: Ref{Version: "v1", Kind: "ConfigMap", Name: "a"}, Action: Create}}}
	for _, name := range []string{"tfplan", "plan.json", "plan.out"} {
		path := filepath.Join(dir, name)
		if err := Save(path, p); err != nil {
			t.Fatal(err)
		}
		got, err := Detect(path)
		if err != nil || got == nil || got.Namespace != "store" || len(got.Changes) != 1 {
			t.Errorf("%s: Detect = %+v, %v", name, got, err)
		}
	}
	for name, content := range map[string]string{
		"cm.json": `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}}`,
		"cm.yaml": "kind: KubeplanPlan\n",
		"empty":   "",
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if got, err := Detect(path); got != nil || err != nil {
			t.Errorf("%s: Detect = %+v, %v; want not a plan", name, got, err)
		}
	}
	if got, err := Detect(dir); got != nil || err != nil {
		t.Errorf("directory: %+v %v", got, err)
	}
	// A plan file of another version is an error, not a manifest.
	bad := filepath.Join(dir, "old")
	if err := os.WriteFile(bad, []byte(`{"kind": "KubeplanPlan", "version": 99}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Detect(bad); err == nil || !strings.Contains(err.Error(), "version 99") {
		t.Errorf("old plan: %v", err)
	}
}
