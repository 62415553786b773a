package lint

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/kubeplan/kubeplan/internal/config"
	"github.com/kubeplan/kubeplan/manifest/helm"
	"github.com/kubeplan/kubeplan/manifest/loader"
	"github.com/kubeplan/kubeplan/project"
)

const helmRepo = "../testdata/repos/helm"

// chartGroups are the chart groups of gs.
func chartGroups(gs []group) []group {
	var out []group
	for _, g := range gs {
		if g.chart {
			out = append(out, g)
		}
	}
	return out
}

// A directory holding charts is split in projects, a chart being one group
// rendered with its settings; a chart directory named directly is read as
// it is (the loader renders it); a template given alone lints its chart.
func TestGroupsCharts(t *testing.T) {
	gs, err := groups([]string{helmRepo}, loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cs := chartGroups(gs)
	if len(gs) != 4 || len(cs) != 1 {
		t.Fatalf("groups %+v: want 4, one of a chart", gs)
	}
	shop := filepath.Join(helmRepo, "charts/shop")
	if !slices.Equal(cs[0].paths, []string{shop}) || cs[0].load.Helm.ReleaseName != "charts-shop" {
		t.Errorf("chart group %+v", cs[0])
	}
	if gs, err = groups([]string{shop}, loader.Options{}); err != nil {
		t.Fatal(err)
	}
	if len(gs) != 1 || gs[0].chart || !slices.Equal(gs[0].paths, []string{shop}) {
		t.Errorf("a chart named directly: %+v", gs)
	}
	for _, f := range []string{"templates/deployment.yaml", "values-dev.yaml", "charts/cache/values.yaml"} {
		if gs, err = groups([]string{filepath.Join(shop, f)}, loader.Options{}); err != nil {
			t.Fatal(err)
		}
		if cs := chartGroups(gs); len(gs) != 1 || len(cs) != 1 || filepath.Base(cs[0].paths[0]) != "shop" {
			t.Errorf("%s alone: groups %+v, want its chart's", f, gs)
		}
	}
}

// Loaded projects (lint --all) render a chart with their helm: settings.
func TestLoadedGroupsCharts(t *testing.T) {
	c, err := config.Load(filepath.Join(helmRepo, config.DefaultFile), true)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := project.Load(helmRepo, c, project.Options{})
	if err != nil {
		t.Fatal(err)
	}
	gs, err := loadedGroups(helmRepo, ps, loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cs := chartGroups(gs)
	if len(cs) != 2 {
		t.Fatalf("chart groups %+v, want shop-dev and shop-prod", cs)
	}
	dev := cs[0].load.Helm
	if dev.ReleaseName != "shop-dev" || dev.Namespace != "shop-dev" || len(dev.ValuesFiles) != 1 ||
		filepath.Base(dev.ValuesFiles[0]) != "values-dev.yaml" || !slices.Equal(dev.Set, []string{"cache.enabled=false"}) {
		t.Errorf("shop-dev renders with %+v", dev)
	}
	if prod := cs[1].load.Helm; prod.ReleaseName != "shop" || prod.Namespace != "shop-prod" {
		t.Errorf("shop-prod renders with %+v", prod)
	}
}

// NEEDS manifest's chart rendering (issue 14, part 1): lint of a
// directory of charts renders each, whose objects are linted clean.
func TestCheckChartRendered(t *testing.T) {
	rep, _, err := Check(Input{Paths: []string{filepath.Join(helmRepo, "charts")}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Findings) != 0 {
		t.Errorf("findings: %+v", rep.Findings)
	}
	_, objs, err := Check(Input{Paths: []string{filepath.Join(helmRepo, "charts/shop")}, KeepObjects: true,
		Load: loader.Options{Helm: helm.Options{ReleaseName: "shop", Namespace: "shop-dev"}}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range objs {
		got = append(got, o.Kind+"/"+o.Name)
	}
	slices.Sort(got)
	if want := []string{"ConfigMap/shop", "ConfigMap/shop-cache", "Deployment/shop", "Service/shop"}; !slices.Equal(got, want) {
		t.Errorf("rendered %q, want %q", got, want)
	}
}
