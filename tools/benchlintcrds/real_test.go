package main

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// A rendered directory is described by what it holds: objects, CRDs and
// their versions, custom resources of the kinds they define, and which
// files kubeconform's openapi2jsonschema.py must read.
func TestDescribeReal(t *testing.T) {
	dir := t.TempDir()
	crds := `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: as.x.dev}
spec:
  group: x.dev
  names: {kind: A, plural: as}
  versions: [{name: v1}, {name: v2}]
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: bs.x.dev}
spec:
  group: x.dev
  names: {kind: B, plural: bs}
  versions: [{name: v1}]
`
	files := map[string]string{
		"01-c-customresourcedefinition.yaml": crds,
		"02-c-a.yaml":                        "apiVersion: x.dev/v1\nkind: A\nmetadata: {name: a1}\n---\napiVersion: x.dev/v2\nkind: A\nmetadata: {name: a2}\n",
		"03-c-configmap.yaml":                "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n",
		"notes.txt":                          "not read",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m, crdFiles, err := describeReal(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := []int{m.Files, m.Objects, m.CRDs, m.CRDVersions, m.CRs, m.UsedKinds}
	if want := []int{3, 5, 2, 3, 2, 1}; !reflect.DeepEqual(got, want) {
		t.Errorf("files, objects, CRDs, versions, custom resources, used kinds = %v, want %v", got, want)
	}
	if want := []string{filepath.Join(dir, "01-c-customresourcedefinition.yaml")}; !reflect.DeepEqual(crdFiles, want) {
		t.Errorf("CRD files = %q, want %q", crdFiles, want)
	}
	if m.CRDBytes != int64(len(crds)) {
		t.Errorf("CRD bytes = %d, want %d", m.CRDBytes, len(crds))
	}
	if _, _, err := describeReal(t.TempDir()); err == nil {
		t.Error("an empty directory was described without error (it has no CRDs)")
	}
}
