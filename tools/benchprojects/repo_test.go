package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/config"
	"github.com/kubeplan/kubeplan/lint"
	"github.com/kubeplan/kubeplan/manifest/loader"
	"github.com/kubeplan/kubeplan/project"
)

// The generated repository holds one project per overlay, lints clean, and
// its flat rendering holds the same number of objects with no two alike.
func TestGeneratedRepository(t *testing.T) {
	dir := t.TempDir()
	repo, flat := filepath.Join(dir, "repo"), filepath.Join(dir, "flat")
	s := quickSpec
	if err := writeRepo(repo, s); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Discover(repo)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := project.Load(repo, cfg, project.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != s.projects() {
		t.Fatalf("%d projects, want %d: %+v", len(ps), s.projects(), ps)
	}
	for i, o := range s.overlays() {
		if ps[i].Name != o.Project() || ps[i].Kind != project.Kustomize {
			t.Errorf("project %d is %s %s, want %s", i, ps[i].Name, ps[i].Kind, o.Project())
		}
	}
	rep, _, err := lint.Check(lint.Input{Paths: []string{repo}}, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Count(lint.Error) != 0 || rep.Objects != s.objects() {
		t.Fatalf("lint of the repository: %d objects, findings %+v", rep.Objects, rep.Findings)
	}

	n, err := writeFlat(repo, flat, s)
	if err != nil {
		t.Fatal(err)
	}
	if n != s.objects() {
		t.Errorf("flat: %d objects, want %d", n, s.objects())
	}
	loaded, err := loader.Load([]string{flat}, loader.Options{})
	if err != nil || len(loaded.Problems) > 0 {
		t.Fatalf("loading the flat directory: %v %+v", err, loaded)
	}
	objs := loaded.Objects
	seen := map[string]bool{}
	for _, o := range objs {
		key := o.Kind + "/" + o.Name
		if seen[key] {
			t.Errorf("flat: %s twice", key)
		}
		seen[key] = true
		if o.Namespace != flatNamespace {
			t.Errorf("flat: %s in namespace %q", key, o.Namespace)
		}
	}
	if len(objs) != s.objects() {
		t.Errorf("flat: loaded %d objects, want %d", len(objs), s.objects())
	}

	// The change for --changed-since is one commit touching one overlay.
	o, err := changeOne(repo, s)
	if err != nil {
		t.Fatal(err)
	}
	changed, err := project.ChangedSince(repo, "HEAD~1", ps)
	if err != nil {
		t.Fatal(err)
	}
	if len(changed) != 1 || changed[0].Name != o.Project() {
		t.Errorf("changed since HEAD~1: %+v, want %s", changed, o.Project())
	}
	b, err := os.ReadFile(filepath.Join(repo, o.Dir(), "kustomization.yaml"))
	if err != nil || !strings.Contains(string(b), `newTag: "1.2.4"`) {
		t.Errorf("changed overlay: %s %v", b, err)
	}
}
