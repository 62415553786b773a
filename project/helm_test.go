package project

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/config"
)

const helmRepo = "../testdata/repos/helm"

// A chart is a project with every file under it; its subchart is not one,
// and neither is the chart a kustomization renders with helmCharts:,
// whose files (and values files) are that kustomization's.
func TestDiscoverCharts(t *testing.T) {
	ps, err := Discover(helmRepo)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	files := map[string][]string{}
	for _, p := range ps {
		got = append(got, p.Name+" "+string(p.Kind)+" "+p.Path)
		files[p.Name] = p.Files
	}
	want := []string{
		"apps-web-overlays-dev kustomize apps/web/overlays/dev",
		"apps-web-overlays-prod kustomize apps/web/overlays/prod",
		"charts-shop helm charts/shop",
		"platform-metrics kustomize platform/metrics",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("projects:\n%q\nwant\n%q", got, want)
	}
	if want := []string{
		"charts/shop/Chart.yaml",
		"charts/shop/charts/cache/Chart.yaml",
		"charts/shop/charts/cache/templates/configmap.yaml",
		"charts/shop/charts/cache/values.yaml",
		"charts/shop/templates/_helpers.tpl",
		"charts/shop/templates/configmap.yaml",
		"charts/shop/templates/deployment.yaml",
		"charts/shop/templates/service.yaml",
		"charts/shop/values-dev.yaml",
		"charts/shop/values-prod.yaml",
		"charts/shop/values.yaml",
	}; !reflect.DeepEqual(files["charts-shop"], want) {
		t.Errorf("chart files %q, want %q", files["charts-shop"], want)
	}
	if want := []string{
		"platform/metrics/charts/metrics/Chart.yaml",
		"platform/metrics/charts/metrics/templates/configmap.yaml",
		"platform/metrics/charts/metrics/values.yaml",
		"platform/metrics/kustomization.yaml",
		"platform/metrics/values.yaml",
	}; !reflect.DeepEqual(files["platform-metrics"], want) {
		t.Errorf("helmCharts kustomization files %q, want %q", files["platform-metrics"], want)
	}
	if h := ps[2].Helm; h == nil || h.Chart != "charts/shop" {
		t.Errorf("chart settings %+v, want chart charts/shop", h)
	}
}

// A chart is found at the root too, and At makes one of a chart
// directory, its subchart included.
func TestChartAtRoot(t *testing.T) {
	ps, err := Discover(filepath.Join(helmRepo, "charts/shop"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 1 || ps[0].Kind != Helm || ps[0].Path != "." || len(ps[0].Files) != 11 {
		t.Fatalf("projects of a chart: %+v", ps)
	}
	p, err := At(helmRepo, filepath.Join(helmRepo, "charts/shop/charts/cache"), Options{})
	if err != nil || p.Kind != Helm || p.Name != "charts-shop-charts-cache" {
		t.Fatalf("At(subchart) = %+v, %v", p, err)
	}
	if ok, err := HasProjects(filepath.Join(helmRepo, "charts/shop"), Options{}); ok || err != nil {
		t.Errorf("HasProjects(chart) = %v, %v; want false: a chart is read as it is", ok, err)
	}
	if ok, err := HasProjects(filepath.Join(helmRepo, "charts"), Options{}); !ok || err != nil {
		t.Errorf("HasProjects(charts) = %v, %v; want true: charts below are projects", ok, err)
	}
}

// copyRepo copies the helm fixture into a new repository and makes it the
// working directory.
func copyRepo(t *testing.T) string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(helmRepo, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(helmRepo, p)
		files[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return repo(t, files)
}

// Two entries for one chart are two projects, each reading its own values
// file only, with its release name and namespace.
func TestLoadChartTwice(t *testing.T) {
	dir := copyRepo(t)
	c, err := config.Load(filepath.Join(dir, config.DefaultFile), true)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := Load(".", c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]Project{}
	var names []string
	for _, p := range ps {
		by[p.Name] = p
		names = append(names, p.Name)
	}
	if want := []string{"apps-web-overlays-dev", "apps-web-overlays-prod", "shop-dev", "shop-prod", "platform-metrics"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("projects %q, want %q", names, want)
	}
	dev, prod := by["shop-dev"], by["shop-prod"]
	if dev.Kind != Helm || dev.Path != "charts/shop" || dev.Namespace != "shop-dev" || dev.ApplySet != "configmap/kubeplan-shop-dev" {
		t.Errorf("shop-dev: %+v", dev)
	}
	if want := (HelmSettings{Chart: "charts/shop", Values: []string{"charts/shop/values-dev.yaml"}, Set: []string{"cache.enabled=false"}, ReleaseName: "shop-dev"}); !reflect.DeepEqual(*dev.Helm, want) {
		t.Errorf("shop-dev helm %+v, want %+v", *dev.Helm, want)
	}
	if prod.Helm.ReleaseName != "shop" || prod.Namespace != "shop-prod" {
		t.Errorf("shop-prod: %+v %+v", prod, *prod.Helm)
	}
	if !slices.Contains(dev.Files, "charts/shop/values-dev.yaml") || slices.Contains(dev.Files, "charts/shop/values-prod.yaml") {
		t.Errorf("shop-dev reads %q: want values-dev.yaml, not values-prod.yaml", dev.Files)
	}
	if !slices.Contains(prod.Files, "charts/shop/values-prod.yaml") || slices.Contains(prod.Files, "charts/shop/values-dev.yaml") {
		t.Errorf("shop-prod reads %q: want values-prod.yaml, not values-dev.yaml", prod.Files)
	}
	h := dev.HelmOptions("/repo", "1.35")
	if h.ReleaseName != "shop-dev" || h.Namespace != "shop-dev" || h.KubeVersion != "1.35" ||
		!reflect.DeepEqual(h.ValuesFiles, []string{filepath.FromSlash("/repo/charts/shop/values-dev.yaml")}) || !reflect.DeepEqual(h.Set, []string{"cache.enabled=false"}) {
		t.Errorf("HelmOptions = %+v", h)
	}
	// Loaded from below, paths are relative to the root given.
	if ps, err = Load("charts", c, Options{}); err != nil {
		t.Fatal(err)
	}
	if len(ps) != 2 || ps[0].Path != "shop" || ps[0].Helm.Chart != "shop" || !reflect.DeepEqual(ps[0].Helm.Values, []string{"shop/values-dev.yaml"}) {
		t.Errorf("from charts/: %+v", ps)
	}
}

// A chart named apart from the entry's path, or packaged.
func TestLoadChartElsewhere(t *testing.T) {
	dir := copyRepo(t)
	if err := os.MkdirAll(filepath.Join(dir, "envs/dev"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "envs/dev/values.yaml"), []byte("replicaCount: 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "shop-0.3.0.tgz"), []byte("not read here"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := parse(t, dir, "projects:\n  - path: envs/dev\n    helm: {chart: charts/shop, values: [envs/dev/values.yaml], skipCRDs: true}\n  - path: shop-0.3.0.tgz\n    helm: {}\n")
	ps, err := Load(".", c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 2 {
		t.Fatalf("projects %+v", ps)
	}
	dev, tgz := ps[0], ps[1]
	if dev.Name != "envs-dev" || dev.Kind != Helm || dev.Helm.Chart != "charts/shop" || !dev.Helm.SkipCRDs ||
		!slices.Contains(dev.Files, "envs/dev/values.yaml") || !slices.Contains(dev.Files, "charts/shop/templates/deployment.yaml") {
		t.Errorf("envs/dev: %+v %+v", dev, *dev.Helm)
	}
	if !affected(dev, ".", map[string]bool{"charts/shop/templates/removed.yaml": true}, nil) {
		t.Errorf("a template removed from its chart does not change envs/dev")
	}
	if tgz.Kind != Helm || tgz.Helm.Chart != "shop-0.3.0.tgz" || !reflect.DeepEqual(tgz.Files, []string{"shop-0.3.0.tgz"}) {
		t.Errorf("tgz: %+v", tgz)
	}
}

func TestLoadHelmErrors(t *testing.T) {
	for _, tc := range []struct{ name, config, want string }{
		{"values missing", "projects:\n  - path: charts/shop\n    helm:\n      values: [charts/shop/values-qa.yaml]\n",
			"kubeplan.yaml:4:16: project charts-shop: helm.values charts/shop/values-qa.yaml: no such file"},
		{"values outside", "projects:\n  - path: charts/shop\n    helm:\n      values: [../values.yaml]\n",
			"kubeplan.yaml:4:16: project charts-shop: helm.values ../values.yaml: outside the repository"},
		{"values a directory", "projects:\n  - path: charts/shop\n    helm: {values: [charts/shop/templates]}\n",
			"kubeplan.yaml:3:21: project charts-shop: helm.values charts/shop/templates: a directory"},
		{"no chart", "projects:\n  - path: apps/web/overlays/dev\n    helm: {}\n",
			"kubeplan.yaml:2:11: projects[0].path apps/web/overlays/dev: not a project: helm: is set, but apps/web/overlays/dev holds no Chart.yaml"},
		{"chart missing", "projects:\n  - path: apps/web\n    helm: {chart: charts/nope}\n",
			"kubeplan.yaml:2:11: projects[0].path apps/web: not a project: no chart there"},
		{"chart not a chart", "projects:\n  - path: apps/web\n    helm: {chart: apps/web/base}\n",
			"holds no Chart.yaml"},
		{"same name twice", "projects:\n  - {name: shop, path: charts/shop}\n  - {name: shop, path: charts/shop}\n",
			`kubeplan.yaml:3:12: project name "shop" is also the name of charts/shop`},
		{"same namespace and set", "projects:\n  - {name: a, path: charts/shop, namespace: n, applyset: cm/x}\n  - {name: b, path: charts/shop, namespace: n, applyset: cm/x}\n",
			"share the ApplySet"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyRepo(t)
			_, err := Load(".", parse(t, dir, tc.config), Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v\nwant %s", err, tc.want)
			}
		})
	}
}

// A values file in the chart directory changes only the projects that
// read it; a template changes all the chart's projects.
func TestAffectedValues(t *testing.T) {
	dir := copyRepo(t)
	c, err := config.Load(filepath.Join(dir, config.DefaultFile), true)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := Load(".", c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	values := map[string]bool{}
	for _, p := range ps {
		if p.Helm != nil {
			for _, v := range p.Helm.Values {
				values[v] = true
			}
		}
	}
	hit := func(changed string) []string {
		var out []string
		for _, p := range ps {
			if affected(p, ".", map[string]bool{changed: true}, values) {
				out = append(out, p.Name)
			}
		}
		return out
	}
	for changed, want := range map[string][]string{
		"charts/shop/values-dev.yaml":                {"shop-dev"},
		"charts/shop/values-prod.yaml":               {"shop-prod"},
		"charts/shop/values.yaml":                    {"shop-dev", "shop-prod"},
		"charts/shop/templates/deployment.yaml":      {"shop-dev", "shop-prod"},
		"charts/shop/templates/removed.yaml":         {"shop-dev", "shop-prod"},
		"charts/shop/charts/cache/values.yaml":       {"shop-dev", "shop-prod"},
		"platform/metrics/charts/metrics/Chart.yaml": {"platform-metrics"},
	} {
		if got := hit(changed); !reflect.DeepEqual(got, want) {
			t.Errorf("%s changes %q, want %q", changed, got, want)
		}
	}
}
