package lint

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/kubeplan/kubeplan/manifest/loader"
)

// writeTree writes files (slash paths) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// overlaysOfOneBase is a base three overlays build into three namespaces
// with their own name prefix: the base's Secret and custom resource become
// three objects each, named differently, all from one place in one file.
var overlaysOfOneBase = map[string]string{
	"base/kustomization.yaml":           "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- secret.yaml\n- widget.yaml\n",
	"base/secret.yaml":                  "apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\nstringData:\n  password: hunter2\n",
	"base/widget.yaml":                  "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n",
	"overlays/dev/kustomization.yaml":   "namespace: dev\nnamePrefix: dev-\nresources:\n- ../../base\n",
	"overlays/stage/kustomization.yaml": "namespace: stage\nnamePrefix: stage-\nresources:\n- ../../base\n",
	"overlays/prod/kustomization.yaml":  "namespace: prod\nnamePrefix: prod-\nresources:\n- ../../base\n",
}

// TestBaseFindingOncePerOverlaySet: the groups of a repository (one per
// overlay) report a problem of their shared base once, though each build
// names the object differently. runGroups alone, without the final Dedupe.
func TestBaseFindingOncePerOverlaySet(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, overlaysOfOneBase)
	gs, err := groups([]string{dir}, Input{}.Load)
	if err != nil {
		t.Fatal(err)
	}
	if len(gs) != 3 {
		t.Fatalf("%d groups, want one per overlay", len(gs))
	}
	rep, err := runGroups(gs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, f := range rep.Findings {
		got[f.Rule+" "+filepath.Base(f.File)+":"+itoa(f.Line)+":"+itoa(f.Col)]++
	}
	want := map[string]int{"plaintext-secret secret.yaml:5:1": 1, "missing-schema widget.yaml:2:7": 1}
	if len(got) != len(want) || got["plaintext-secret secret.yaml:5:1"] != 1 || got["missing-schema widget.yaml:2:7"] != 1 {
		t.Errorf("findings %v, want %v:\n%+v", got, want, rep.Findings)
	}
	if rep.Objects != 6 {
		t.Errorf("%d objects, want 6 (2 per overlay)", rep.Objects)
	}
}

func TestDedupe(t *testing.T) {
	secret := Finding{File: "base/secret.yaml", Line: 5, Col: 1, Rule: "plaintext-secret", Message: "Secret has stringData", Object: "secret/dev-app", Namespace: "dev"}
	other := secret
	other.Object, other.Namespace = "secret/prod-app", "prod"
	req1 := Finding{File: "svc.yaml", Line: 6, Col: 5, Rule: "schema", Message: `missing required field "port"`}
	req2 := req1
	req2.Message = `missing required field "targetPort"`
	otherRule := secret
	otherRule.Rule = "invalid-meta"
	got := Dedupe([]Finding{secret, req1, other, req2, otherRule, req1})
	want := []Finding{otherRule, secret, req1, req2} // sorted: file, line, column, rule, message
	if len(got) != len(want) {
		t.Fatalf("got %d findings, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("finding %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	// the least namespace and name is kept, wherever it comes
	got = Dedupe([]Finding{other, req1, secret})
	if len(got) != 2 || got[0] != secret || got[1] != req1 {
		t.Errorf("got %+v, want the dev Secret's finding, then the Service's", got)
	}
	var d dedupe
	var built []Finding
	for _, f := range []Finding{other, req1, secret, req1} {
		d.add(&built, f)
	}
	if len(built) != 2 || built[0] != secret || built[1] != req1 {
		t.Errorf("dedupe.add built %+v, want the dev Secret's finding in the place of the prod one", built)
	}
}

// TestCheckDedupes: Check, the one entry point, never reports one rule
// twice at one place, whatever path reaches the file: here the directory
// (three overlays) and the base's file named on its own.
func TestCheckDedupes(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, overlaysOfOneBase)
	base := filepath.Join(dir, "base")
	rep, _, err := Check(Input{Paths: []string{dir, filepath.Join(base, "secret.yaml")}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[placeKey]bool{}
	n := 0
	for _, f := range rep.Findings {
		k := placeKey{f.File, f.Line, f.Col, f.Rule, ""}
		if seen[k] {
			t.Errorf("repeated: %+v", f)
		}
		seen[k] = true
		if f.Rule == "plaintext-secret" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d plaintext-secret findings, want 1: %+v", n, rep.Findings)
	}
}

// TestLintedObjects: with ListObjects, Check lists every object linted,
// streamed or kept, one per document (a base three overlays build is one,
// named as its deduplicated findings name it); without, nothing.
func TestLintedObjects(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"plain/a.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\napiVersion: v1\nkind: ServiceAccount\nmetadata: {name: b}\n"}
	for k, v := range overlaysOfOneBase {
		files["repo/"+k] = v
	}
	writeTree(t, dir, files)
	plain := filepath.Join(dir, "plain")
	for _, keep := range []bool{false, true} {
		rep, _, err := Check(Input{Paths: []string{plain}, KeepObjects: keep}, Options{ListObjects: true})
		if err != nil {
			t.Fatal(err)
		}
		want := []ObjectRef{
			{File: filepath.Join(plain, "a.yaml"), Line: 1, Object: "configmap/a"},
			{File: filepath.Join(plain, "a.yaml"), Line: 5, Object: "serviceaccount/b"},
		}
		if len(rep.Linted) != len(want) || rep.Linted[0] != want[0] || rep.Linted[1] != want[1] {
			t.Errorf("keep=%v: linted %+v, want %+v", keep, rep.Linted, want)
		}
	}
	rep, _, err := Check(Input{Paths: []string{plain}}, Options{})
	if err != nil || rep.Linted != nil {
		t.Errorf("listed without ListObjects: %+v %v", rep.Linted, err)
	}

	rep, _, err = Check(Input{Paths: []string{filepath.Join(dir, "repo")}}, Options{ListObjects: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range rep.Linted {
		got = append(got, filepath.Base(o.File)+":"+itoa(o.Line)+" "+o.Object+" in "+o.Namespace)
	}
	if len(got) != 2 || got[0] != "secret.yaml:1 secret/dev-app in dev" || got[1] != "widget.yaml:1 widget.example.com/dev-w in dev" {
		t.Errorf("linted %q, want the base's Secret and Widget once, as dev builds them", got)
	}
	for _, f := range rep.Findings {
		if f.Namespace != "dev" {
			t.Errorf("finding names %s in %s, not the listed object", f.Object, f.Namespace)
		}
	}
}

// keptAndStreamed lints dir twice, as a kept set (run) and streamed
// (runSources), so a test can hold the two to the same findings.
func keptAndStreamed(t *testing.T, dir string, opts Options) (kept, streamed Report) {
	t.Helper()
	res, err := loader.Load([]string{dir}, loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if kept, err = run(res, opts); err != nil {
		t.Fatal(err)
	}
	srcs, err := loader.Collect([]string{dir}, loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if streamed, err = runSources(srcs, opts); err != nil {
		t.Fatal(err)
	}
	return kept, streamed
}
