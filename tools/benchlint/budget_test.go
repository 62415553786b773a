package main

import (
	"path/filepath"
	"testing"

	"github.com/kubeplan/kubeplan/manifest/loader"
)

// The full 20,000-object corpus loads whole, as plan keeps it: no file is
// refused for density, and the set is within manifest.MaxLoadUnits.
func TestCorpusWithinLoadBounds(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "corpus")
	if _, err := generate(dir, params{Resources: 20000, Files: 2000, Seed: 1, Generator: generatorVersion}); err != nil {
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
	if len(res.Objects) != 20000 {
		t.Errorf("%d objects loaded, want 20000", len(res.Objects))
	}
}
