package project

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

const shop = "../testdata/repos/shop"

func TestDiscoverShop(t *testing.T) {
	ps, err := Discover(shop)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range ps {
		got = append(got, p.Name+" "+string(p.Kind)+" "+p.Path)
	}
	want := []string{
		"apps-api-overlays-dev kustomize apps/api/overlays/dev",
		"apps-api-overlays-prod kustomize apps/api/overlays/prod",
		"apps-api-overlays-staging kustomize apps/api/overlays/staging",
		"apps-web-overlays-dev kustomize apps/web/overlays/dev",
		"apps-web-overlays-prod kustomize apps/web/overlays/prod",
		"apps-web-overlays-staging kustomize apps/web/overlays/staging",
		"platform-backups manifests platform/backups",
		"platform-crds manifests platform/crds",
		"platform-monitoring manifests platform/monitoring",
		"platform-namespaces-dev manifests platform/namespaces/dev",
		"platform-namespaces-prod manifests platform/namespaces/prod",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("projects:\n%q\nwant\n%q", got, want)
	}
	files := map[string][]string{}
	for _, p := range ps {
		files[p.Path] = p.Files
	}
	if want := []string{
		"apps/web/base/deployment.yaml",
		"apps/web/base/kustomization.yaml",
		"apps/web/base/service.yaml",
		"apps/web/base/serviceaccount.yaml",
		"apps/web/overlays/prod/kustomization.yaml",
		"apps/web/overlays/prod/pdb.yaml",
		"apps/web/overlays/prod/replicas.yaml",
		"apps/web/overlays/prod/resources.yaml",
		"components/monitoring/kustomization.yaml",
		"components/monitoring/scrape.yaml",
	}; !reflect.DeepEqual(files["apps/web/overlays/prod"], want) {
		t.Errorf("web prod files %q, want %q", files["apps/web/overlays/prod"], want)
	}
	if want := []string{
		"apps/api/base/deployment.yaml",
		"apps/api/base/kustomization.yaml",
		"apps/api/base/service.yaml",
		"apps/api/base/serviceaccount.yaml",
		"apps/api/overlays/dev/kustomization.yaml",
	}; !reflect.DeepEqual(files["apps/api/overlays/dev"], want) {
		t.Errorf("api dev files %q, want %q", files["apps/api/overlays/dev"], want)
	}
	if want := []string{"platform/namespaces/dev/namespaces.yaml"}; !reflect.DeepEqual(files["platform/namespaces/dev"], want) {
		t.Errorf("platform/namespaces/dev files %q, want %q", files["platform/namespaces/dev"], want)
	}
}

func write(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const cm = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n"

// An unused base is a project; plain siblings are separate projects;
// dot-directories, excludes, non-Kubernetes YAML, remote resources and
// referenced plain files are skipped.
func TestDiscoverEdges(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"app/base/kustomization.yaml":   "resources: [cm.yaml]\n",
		"app/base/cm.yaml":              cm,
		"app/overlay/kustomization.yml": "resources: [../base]\npatchesStrategicMerge: [../../patches/p.yaml]\n",
		"lone/Kustomization":            "resources: [cm.yaml, https://example.com/x.yaml]\nconfigMapGenerator: [{name: g, files: [k=conf.txt]}]\n",
		"lone/cm.yaml":                  cm,
		"lone/conf.txt":                 "x\n",
		"patches/p.yaml":                cm,
		"teams/a/cm.yaml":               cm,
		"teams/b/cm.json":               `{"apiVersion": "v1", "kind": "ConfigMap"}`,
		"teams/b/values.yaml":           "replicas: 2\n",
		"docs/values.yaml":              "not: kubernetes\n",
		".github/workflows/ci.yaml":     "on: push\n",
		"skip/cm.yaml":                  cm,
	})
	ps, err := DiscoverWith(root, Options{Exclude: []string{"skip"}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, p := range ps {
		got[p.Path+" "+string(p.Kind)] = p.Files
	}
	want := map[string][]string{
		"app/overlay kustomize": {"app/base/cm.yaml", "app/base/kustomization.yaml", "app/overlay/kustomization.yml", "patches/p.yaml"},
		"lone kustomize":        {"lone/Kustomization", "lone/cm.yaml", "lone/conf.txt"},
		"teams/a manifests":     {"teams/a/cm.yaml"},
		"teams/b manifests":     {"teams/b/cm.json", "teams/b/values.yaml"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}

// A kustomization at the root hides no nested kustomization it does not
// use; plain files in its tree are its own, used or not.
func TestDiscoverRootKustomization(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"kustomization.yaml":        "resources: [extra.yaml]\n",
		"extra.yaml":                cm,
		"unused/cm.yaml":            cm,
		"nested/kustomization.yaml": "resources: [cm.yaml]\n",
		"nested/cm.yaml":            cm,
	})
	ps, err := Discover(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 2 || ps[0].Path != "." || ps[1].Path != "nested" {
		t.Fatalf("projects %+v", ps)
	}
	if ps[0].Name != filepath.Base(root) || !reflect.DeepEqual(ps[0].Files, []string{"extra.yaml", "kustomization.yaml"}) {
		t.Errorf("root project %+v", ps[0])
	}
}

// Kustomizations that use each other, with no top, are still projects
// (kustomize reports the cycle); a Component nobody uses is none.
func TestDiscoverCycle(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"a/kustomization.yaml":      "resources: [../b]\n",
		"b/kustomization.yaml":      "resources: [../a]\n",
		"unused/kustomization.yaml": "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\n",
	})
	ps, err := Discover(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 1 || ps[0].Path != "a" || !reflect.DeepEqual(ps[0].Files, []string{"a/kustomization.yaml", "b/kustomization.yaml"}) {
		t.Errorf("projects %+v", ps)
	}
}

// TestFindBuildsOnly: with BuildsOnly, Find returns the kustomizations
// (and charts) of the shop repository, each with the same files as
// without it, and no plain manifests directory.
func TestFindBuildsOnly(t *testing.T) {
	all, _, err := Find(shop, Options{})
	if err != nil {
		t.Fatal(err)
	}
	builds, _, err := Find(shop, Options{BuildsOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	var want []Project
	for _, p := range all {
		if p.Kind != Manifests {
			want = append(want, p)
		}
	}
	if len(want) == 0 || len(want) == len(all) {
		t.Fatalf("the shop fixture must have builds and manifests directories: %d of %d", len(want), len(all))
	}
	if len(builds) != len(want) {
		t.Fatalf("BuildsOnly found %d projects, want the %d builds", len(builds), len(want))
	}
	for i := range want {
		if builds[i].Path != want[i].Path || builds[i].Kind != want[i].Kind || !reflect.DeepEqual(builds[i].Files, want[i].Files) {
			t.Errorf("project %d: %s %s %v, want %s %s %v", i, builds[i].Kind, builds[i].Path, builds[i].Files, want[i].Kind, want[i].Path, want[i].Files)
		}
	}
}
