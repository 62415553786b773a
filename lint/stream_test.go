package lint

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// RunSources must find exactly what loading everything and Run finds, with
// CRDs after their custom resources and duplicates across files.
func TestRunSourcesMatchesRun(t *testing.T) {
	dir := t.TempDir()
	crd, err := os.ReadFile(filepath.Join("testdata", "crd.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"a-crs.yaml": string(crd[len("apiVersion"):]), // placeholder, replaced below
		"z-crd.yaml": string(crd),
		"b.yaml":     "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: dup}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ignored\n  annotations: {kubeplan.dev/ignore: duplicate-object}\n",
		"c.yaml":     "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: dup}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ignored\n  annotations: {kubeplan.dev/ignore: duplicate-object}\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec: {replicas: three}\n",
	}
	// the custom resources alone, in a file sorted before their CRD
	files["a-crs.yaml"] = string(crd)[len("---\n")+indexOf(string(crd), "---\n"):]
	writeTree(t, dir, files)
	want, got := keptAndStreamed(t, dir, Options{})
	if !reflect.DeepEqual(got, want) {
		t.Errorf("RunSources differs from Run:\n got %+v\nwant %+v", got, want)
	}
	rules := map[string]int{}
	for _, f := range got.Findings {
		rules[f.Rule]++
	}
	if rules["duplicate-object"] != 5 || rules["crd-schema"] != 8 || rules["crd-validation"] != 2 || rules["schema"] != 3 || rules["missing-schema"] != 0 {
		t.Errorf("findings by rule: %v", rules)
	}
}

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}
