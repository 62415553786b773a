package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

var tiny = spec{ConfigMaps: 23, Deployments: 5, Services: 4, Seed: 7, Generator: generatorVersion}

func TestGenerateIsDeterministic(t *testing.T) {
	a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	ci, err := generate(a, tiny)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := generate(b, tiny); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(a)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != tiny.Deployments || ci.Files != tiny.Deployments {
		t.Fatalf("%d files, want %d", len(entries), tiny.Deployments)
	}
	for _, e := range entries {
		x, _ := os.ReadFile(filepath.Join(a, e.Name()))
		y, err := os.ReadFile(filepath.Join(b, e.Name()))
		if err != nil || !bytes.Equal(x, y) {
			t.Fatalf("%s differs between two generations (%v)", e.Name(), err)
		}
	}
	objs, err := loadCorpus(a)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	names := map[string]bool{}
	for _, o := range objs {
		kinds[o.GetKind()]++
		key := o.GetKind() + "/" + o.GetName()
		if names[key] {
			t.Errorf("duplicate %s", key)
		}
		names[key] = true
		if o.GetNamespace() != "" {
			t.Errorf("%s names a namespace", key)
		}
	}
	if kinds["ConfigMap"] != 23 || kinds["Deployment"] != 5 || kinds["Service"] != 4 || len(objs) != tiny.objects() {
		t.Errorf("kinds %v", kinds)
	}
}

func TestEnsureCorpusRegeneratesOnlyWhenSpecChanges(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "corpus")
	if _, gen, err := ensureCorpus(dir, tiny); err != nil || !gen {
		t.Fatalf("first: generated=%v err=%v", gen, err)
	}
	if _, gen, err := ensureCorpus(dir, tiny); err != nil || gen {
		t.Fatalf("same spec: generated=%v err=%v", gen, err)
	}
	other := tiny
	other.Seed++
	if _, gen, err := ensureCorpus(dir, other); err != nil || !gen {
		t.Fatalf("new seed: generated=%v err=%v", gen, err)
	}
}
