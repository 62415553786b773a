package lint

import (
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/kubeplan/kubeplan/manifest"
)

// A pod-security redo reads again only the plain files that held the pod
// templates it judges again, and kustomize sources always; when one of
// those files is no plain source's (here: a name no source has), it reads
// every source.
func TestStreamObjectsInReadsOnlyNamedFiles(t *testing.T) {
	dir := t.TempDir()
	cm := func(name string) string { return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: " + name + "}\n" }
	writeTree(t, dir, map[string]string{
		"a.yaml":                  cm("a"),
		"b.yaml":                  cm("b"),
		"k/kustomization.yaml":    "resources: [c.yaml]\n",
		"k/c.yaml":                cm("c"),
		"crds/big-crds-only.yaml": cm("d"),
	})
	all := func(*manifest.Object) bool { return true }
	names := func(files map[string]bool) []string {
		t.Helper()
		objs, err := streamObjectsIn([]string{dir}, Input{}, 1, files, all)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, o := range objs {
			out = append(out, o.Name)
		}
		slices.Sort(out)
		return out
	}
	if got, want := names(map[string]bool{filepath.Join(dir, "b.yaml"): true}), []string{"b", "c"}; !reflect.DeepEqual(got, want) {
		t.Errorf("objects read for b.yaml = %q, want %q (b.yaml and the kustomization)", got, want)
	}
	if got, want := names(map[string]bool{filepath.Join(dir, "b.yaml"): true, "elsewhere.yaml": true}), []string{"a", "b", "c", "d"}; !reflect.DeepEqual(got, want) {
		t.Errorf("objects read for an unknown file = %q, want every source's %q", got, want)
	}
}
