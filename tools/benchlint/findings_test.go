package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// makeCopies repeats every file five times (the CRD once) and, in the
// distinct tree, renames each copy's namespaces so nothing repeats.
func TestMakeCopies(t *testing.T) {
	dir := t.TempDir()
	corpus := filepath.Join(dir, "corpus")
	if err := os.MkdirAll(corpus, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{widgetCRDFile: "kind: CustomResourceDefinition\n", "team-0001.yaml": "metadata: {namespace: team-0001}\n"}
	for n, b := range files {
		if err := os.WriteFile(filepath.Join(corpus, n), []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dup, distinct := filepath.Join(dir, "dup"), filepath.Join(dir, "distinct")
	if err := makeCopies(corpus, dup, distinct); err != nil {
		t.Fatal(err)
	}
	for _, tree := range []string{dup, distinct} {
		crds, _ := filepath.Glob(filepath.Join(tree, "*", widgetCRDFile))
		data, _ := filepath.Glob(filepath.Join(tree, "*", "team-0001.yaml"))
		if len(crds) != 1 || len(data) != copies {
			t.Errorf("%s: %d CRD files, %d data files; want 1 and %d", tree, len(crds), len(data), copies)
		}
	}
	seen := map[string]bool{}
	for c := 1; c <= copies; c++ {
		d, err := os.ReadFile(filepath.Join(dup, "copy-"+string(rune('0'+c)), "team-0001.yaml"))
		if err != nil || string(d) != files["team-0001.yaml"] {
			t.Errorf("dup copy %d = %q, %v", c, d, err)
		}
		b, err := os.ReadFile(filepath.Join(distinct, "copy-"+string(rune('0'+c)), "team-0001.yaml"))
		if err != nil || strings.Contains(string(b), "team-") || seen[string(b)] {
			t.Errorf("distinct copy %d = %q, %v: want a namespace of its own", c, b, err)
		}
		seen[string(b)] = true
	}
}
