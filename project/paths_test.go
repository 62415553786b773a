package project

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/kubeplan/kubeplan/internal/config"
)

// ForPaths maps what lint is given to the declared projects that read it:
// a values file to the projects that name it, a template or a chart to
// every project of the chart, a base's file or directory to the overlays
// that use it; what no project reads is linted as it is.
func TestForPaths(t *testing.T) {
	dir := copyRepo(t)
	c, err := config.Load(filepath.Join(dir, config.DefaultFile), true)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := Load(".", c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "cm.yaml")
	if err := os.WriteFile(outside, []byte("kind: ConfigMap\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "charts", "shop"), filepath.Join(dir, "shop-link")); err != nil {
		t.Fatal(err)
	}
	all := []string{"apps-web-overlays-dev", "apps-web-overlays-prod", "shop-dev", "shop-prod", "platform-metrics"}
	for _, c := range []struct {
		paths    []string
		selected []string
		rest     []string
	}{
		{paths: []string{"charts/shop/values-prod.yaml"}, selected: []string{"shop-prod"}},
		{paths: []string{"charts/shop/values-dev.yaml"}, selected: []string{"shop-dev"}},
		{paths: []string{"charts/shop/templates/_helpers.tpl"}, selected: []string{"shop-dev", "shop-prod"}},
		{paths: []string{"charts/shop"}, selected: []string{"shop-dev", "shop-prod"}},
		{paths: []string{"shop-link/values-prod.yaml"}, selected: []string{"shop-prod"}},
		{paths: []string{"charts"}, selected: []string{"shop-dev", "shop-prod"}},
		{paths: []string{"apps/web/base/deployment.yaml"}, selected: []string{"apps-web-overlays-dev", "apps-web-overlays-prod"}},
		{paths: []string{"apps/web/base"}, selected: []string{"apps-web-overlays-dev", "apps-web-overlays-prod"}},
		{paths: []string{"apps/web/overlays/prod"}, selected: []string{"apps-web-overlays-prod"}},
		{paths: []string{"platform/metrics/values.yaml", "charts/shop/values-dev.yaml"}, selected: []string{"shop-dev", "platform-metrics"}},
		{paths: []string{"."}, selected: all},
		{paths: []string{"README.md", "-", "nope.yaml", outside, "apps/web/overlays/dev"},
			selected: []string{"apps-web-overlays-dev"}, rest: []string{"README.md", "-", "nope.yaml", outside}},
	} {
		got, rest := ForPaths(".", ps, c.paths)
		var names []string
		for _, p := range got {
			names = append(names, p.Name)
		}
		if !reflect.DeepEqual(names, c.selected) || !reflect.DeepEqual(rest, c.rest) {
			t.Errorf("ForPaths(%q) = %q, rest %q; want %q, rest %q", c.paths, names, rest, c.selected, c.rest)
		}
	}
	// From below the config's directory, paths are relative to the root given.
	t.Chdir("charts")
	got, _ := ForPaths("..", ps, []string{"shop/values-prod.yaml"})
	if len(got) != 1 || got[0].Name != "shop-prod" || got[0].Helm.Values[0] != "charts/shop/values-prod.yaml" {
		t.Errorf("from charts/: %+v", got)
	}
}
