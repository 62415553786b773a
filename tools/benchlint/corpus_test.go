package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/lint"
)

var small = params{Resources: 401, Files: 11, Seed: 7, Generator: generatorVersion}

func TestGenerateIsDeterministic(t *testing.T) {
	a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	ma, err := generate(a, small)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := generate(b, small); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(a)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != small.Files {
		t.Fatalf("%d files, want %d", len(entries), small.Files)
	}
	for _, e := range entries {
		x, _ := os.ReadFile(filepath.Join(a, e.Name()))
		y, err := os.ReadFile(filepath.Join(b, e.Name()))
		if err != nil || !bytes.Equal(x, y) {
			t.Fatalf("%s differs between two generations (%v)", e.Name(), err)
		}
	}
	total := 0
	for _, n := range ma.Counts {
		total += n
	}
	if total != small.Resources {
		t.Errorf("%d objects, want %d", total, small.Resources)
	}
	if want := 2; len(ma.Invalid) != want { // round(0.005 * 401)
		t.Errorf("%d invalid objects, want %d", len(ma.Invalid), want)
	}
}

func TestEnsureCorpusRegeneratesOnlyWhenParamsChange(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "corpus")
	if _, gen, err := ensureCorpus(dir, small); err != nil || !gen {
		t.Fatalf("first call: generated=%v, err=%v; want a new corpus", gen, err)
	}
	if _, gen, err := ensureCorpus(dir, small); err != nil || gen {
		t.Fatalf("same params: generated=%v, err=%v; want the corpus reused", gen, err)
	}
	other := small
	other.Seed++
	if _, gen, err := ensureCorpus(dir, other); err != nil || !gen {
		t.Fatalf("new seed: generated=%v, err=%v; want a new corpus", gen, err)
	}
	if err := os.Remove(filepath.Join(dir, widgetCRDFile)); err != nil {
		t.Fatal(err)
	}
	if _, gen, err := ensureCorpus(dir, other); err != nil || !gen {
		t.Fatalf("file missing: generated=%v, err=%v; want a new corpus", gen, err)
	}
}

// TestKubeplanFindsExactlyThePlantedDefects lints a small corpus in-process,
// the way `kubeplan lint` does:
// every planted defect is an error, and nothing else is.
func TestKubeplanFindsExactlyThePlantedDefects(t *testing.T) {
	t.Setenv("KUBEPLAN_CACHE_DIR", t.TempDir())
	p := small
	p.Resources, p.Files = 1601, 41 // 8 invalid objects: each kind of defect
	dir := filepath.Join(t.TempDir(), "corpus")
	m, err := generate(dir, p)
	if err != nil {
		t.Fatal(err)
	}
	rep, _, err := lint.Check(lint.Input{Paths: []string{dir}}, lint.Options{}) // as `kubeplan lint` does
	if err != nil {
		t.Fatal(err)
	}
	got := detection{Objects: map[string]bool{}, Files: map[string]bool{}}
	dangling := 0
	for _, f := range rep.Findings {
		// The corpus's Deployments run as a ServiceAccount of their own
		// name that the corpus does not define: one dangling-ref info each.
		if f.Rule == "dangling-ref" && f.Severity == lint.Info && strings.Contains(f.Message, `need serviceaccount "`) {
			dangling++
			continue
		}
		if f.Severity != lint.Error {
			t.Errorf("unexpected %s finding: %s:%d:%d %s", f.Severity, f.File, f.Line, f.Col, f.Message)
			continue
		}
		kind, name := splitObject(f.Object)
		got.Objects[objectKey(relTo(dir, f.File), kind, name)] = true
	}
	if deployments := strings.Count(readCorpus(t, dir), "\nkind: Deployment\n"); dangling != deployments {
		t.Errorf("%d dangling-ref findings for %d Deployments", dangling, deployments)
	}
	want := expectedDetection(m)
	if missed := diff(want.Objects, got.Objects); len(missed) > 0 {
		t.Errorf("planted but not found: %v", missed)
	}
	if extra := diff(got.Objects, want.Objects); len(extra) > 0 {
		t.Errorf("found but not planted: %v", extra)
	}
	kinds := map[string]bool{}
	for _, inv := range m.Invalid {
		kinds[inv.Kind+" "+inv.Defect] = true
	}
	if len(kinds) < 5 {
		t.Errorf("only %d kinds of defect planted: %v", len(kinds), kinds)
	}
}

// readCorpus is every file of the corpus, concatenated.
func readCorpus(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		b.Write(data)
		b.WriteString("\n")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
