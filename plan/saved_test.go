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
