package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A repository root is linted project by project: no base collides with
// itself, no Component is built alone.
func TestCheckProjectsShop(t *testing.T) {
	rep, _, err := Check(Input{Paths: []string{"../testdata/repos/shop"}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Findings) != 0 {
		t.Errorf("findings: %+v", rep.Findings)
	}
	if rep.Files != 11 || rep.Objects != 34 {
		t.Errorf("files %d, objects %d; want 11, 34", rep.Files, rep.Objects)
	}
}

const widgetCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer}
`

// The CRDs of one project validate the custom resources of the others,
// from plain files and from kustomizations; an error in a base two
// overlays build is reported once.
func TestCheckProjectsShareCRDs(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"crds/widget.yaml":         widgetCRD,
		"base/kustomization.yaml":  "resources: [w.yaml]\n",
		"base/w.yaml":              "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: big}\n",
		"dev/kustomization.yaml":   "resources: [../base]\n",
		"prod/kustomization.yaml":  "resources: [../base]\ncommonAnnotations: {tier: prod}\n",
		"crds2/kustomization.yaml": "resources: [gadget.yaml]\n",
		"crds2/gadget.yaml":        strings.NewReplacer("widget", "gadget", "Widget", "Gadget").Replace(widgetCRD),
		"gadgets/g.yaml":           "apiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g}\nspec: {size: 3}\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rep, _, err := Check(Input{Paths: []string{dir}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rules := map[string]int{}
	for _, f := range rep.Findings {
		rules[f.Rule]++
	}
	if rules["missing-schema"] != 0 || rules["crd-schema"] != 1 || len(rep.Findings) != 1 {
		t.Errorf("findings: %+v", rep.Findings)
	}
}

// A kustomization at the root does not hide the nested ones it does not
// use: they are built too.
func TestCheckProjectsRootKustomization(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"kustomization.yaml":       "resources: [cm.yaml]\n",
		"cm.yaml":                  "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n",
		"extra/kustomization.yaml": "resources: [d.yaml]\n",
		"extra/d.yaml":             "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec: {replicas: three}\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rep, _, err := Check(Input{Paths: []string{dir}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Objects != 2 || rep.Count(Error) == 0 || rep.Findings[0].File != filepath.Join(dir, "extra", "d.yaml") {
		t.Errorf("objects %d, findings %+v", rep.Objects, rep.Findings)
	}
}

// A patch file in a subdirectory of the kustomization using it is no
// manifest (subdirectories are not in its reach unless referenced): it
// is read only by the build.
func TestCheckProjectsPatchNotLinted(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"base/kustomization.yaml":       "resources: [d.yaml]\n",
		"base/d.yaml":                   "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n    spec: {containers: [{name: c, image: nginx:1.27}]}\n",
		"overlay/kustomization.yaml":    "resources: [../base]\npatches: [{path: patches/replicas.yaml}]\n",
		"overlay/patches/replicas.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec: {replicas: 3}\n",
		"plain/cm.yaml":                 "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rep, _, err := Check(Input{Paths: []string{dir}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Findings) != 0 || rep.Files != 2 || rep.Objects != 2 {
		t.Errorf("files %d, objects %d, findings %+v", rep.Files, rep.Objects, rep.Findings)
	}
}
