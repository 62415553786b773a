package main

import (
	"path/filepath"
	"testing"

	"github.com/kubeplan/kubeplan/manifest/loader"
)

// The kubeflow-shaped corpus (52 MiB, 41 MiB of CRDs) loads whole, as
// plan keeps it: no file is refused for density, and the set is within
// manifest.MaxLoadUnits.
func TestCorpusWithinLoadBounds(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "corpus")
	m, err := generate(dir)
	if err != nil {
		t.Fatal(err)
	}
	res, err := loader.Load([]string{dir}, loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range res.Problems {
		if p.Rule == "invalid-yaml" {
			t.Errorf("%s", p)
		}
	}
	if len(res.Objects) != m.Objects {
		t.Errorf("%d objects loaded, want the corpus's %d", len(res.Objects), m.Objects)
	}
}
