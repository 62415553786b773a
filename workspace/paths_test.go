package workspace

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/kubeplan/kubeplan/project"
)

// A chart project reads its chart, whatever its directory and files.
func TestPathsChart(t *testing.T) {
	p := project.Project{Name: "shop-dev", Path: "envs/dev", Kind: project.Helm,
		Files: []string{"charts/shop/Chart.yaml", "envs/dev/values.yaml"},
		Helm:  &project.HelmSettings{Chart: "charts/shop", Values: []string{"envs/dev/values.yaml"}}}
	if got, want := Paths("/repo", p), []string{filepath.FromSlash("/repo/charts/shop")}; !slices.Equal(got, want) {
		t.Errorf("Paths = %q, want %q", got, want)
	}
	p.Kind, p.Helm = project.Manifests, nil
	if got := Paths("/repo", p); len(got) != 2 {
		t.Errorf("manifests Paths = %q, want its files", got)
	}
}
