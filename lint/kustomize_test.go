package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Findings about values an overlay sets point at the overlay: the patch
// file, or the kustomization entry; values it leaves alone at the base.
func TestKustomizeOverlayFindings(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"base/kustomization.yaml": "resources:\n- frontend.yaml\n",
		"base/frontend.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: frontend
spec:
  replicas: 1
  selector: {matchLabels: {app: frontend}}
  template:
    metadata: {labels: {app: frontend}}
    spec:
      containers:
      - name: app
        image: shop:v0.10.6
  progressDeadlineSeconds: ten
`,
		"overlays/prod/kustomization.yaml": `resources:
- ../../base
images:
- name: shop
  newTag: latest
patches:
- path: replicas.yaml
- path: json.yaml
  target: {kind: Deployment, name: frontend}
`,
		"overlays/prod/replicas.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: frontend\nspec:\n  replicas: \"3\"\n",
		"overlays/prod/json.yaml":     "- op: replace\n  path: /spec/minReadySeconds\n  value: soon\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	// Files are shown relative to the checkout, as plan of a git source
	// does: the overlay's files too.
	rename := func(s string) string { return strings.TrimPrefix(s, dir+string(filepath.Separator)) }
	rep, _, err := Check(Input{Paths: []string{filepath.Join(dir, "overlays/prod")}, Rename: rename, KeepObjects: true}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range rep.Findings {
		got[f.Field] += f.File + ":" + itoa(f.Line) + ":" + itoa(f.Col) + " " + f.Rule + ";"
	}
	t.Chdir(dir)
	rep, _, err = Check(Input{Paths: []string{"overlays/prod"}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		got[f.Field] = f.File + ":" + itoa(f.Line) + ":" + itoa(f.Col) + " " + f.Rule + ";" + got[f.Field]
	}
	for field, want := range map[string]string{
		"spec.replicas":                          "overlays/prod/replicas.yaml:6:13 schema",
		"spec.template.spec.containers[0].image": "overlays/prod/kustomization.yaml:5:11 image-latest",
		"spec.minReadySeconds":                   "overlays/prod/json.yaml:3:10 schema",
		"spec.progressDeadlineSeconds":           "base/frontend.yaml:14:28 schema",
	} {
		if got[field] != want+";"+want+";" {
			t.Errorf("%s: got %q, want %q", field, got[field], want)
		}
	}
}

// The ignore annotation of an object covers the findings in its overlays.
func TestKustomizeOverlayIgnore(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"base/kustomization.yaml": "resources:\n- web.yaml\n",
		"base/web.yaml":           "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  annotations: {kubeplan.dev/ignore: image-latest}\nspec:\n  containers:\n  - {name: app, image: shop:v1}\n",
		"prod/kustomization.yaml": "resources: [../base]\nimages:\n- {name: shop, newTag: latest}\n",
		".git/HEAD":               "",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rep, _, err := Check(Input{Paths: []string{filepath.Join(dir, "prod")}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		if f.Rule == "image-latest" {
			t.Errorf("ignored finding reported: %+v", f)
		}
	}
}
