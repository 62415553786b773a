package helm_test

import (
	"slices"
	"testing"

	"github.com/kubeplan/kubeplan/internal/testing/filetree"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/manifest/helm"
)

const crdChart = "../../testdata/charts/crds"

// kindsNames is "Kind/name" of each object, in order.
func kindsNames(objs []*manifest.Object) []string {
	var out []string
	for _, o := range objs {
		out = append(out, o.Kind+"/"+o.Name)
	}
	return out
}

func TestHelmCRDsByDefault(t *testing.T) {
	res := loadChartT(t, crdChart, helm.Options{ReleaseName: "g"})
	if len(res.Problems) > 0 {
		t.Fatalf("problems: %v", res.Problems)
	}
	want := []string{
		"CustomResourceDefinition/gadgets.example.com", // the chart's crds/ first
		"CustomResourceDefinition/widgets.example.org", // then its subchart's
		"Widget/g-widget",
		"ConfigMap/g-settings",
		"Gadget/g",
	}
	got := kindsNames(res.Objects)
	if !slices.Equal(got, want) {
		t.Fatalf("objects %v, want %v", got, want)
	}
	if f := res.Objects[1].File; f != crdChart+"/charts/widgets/crds/widgets.yaml" {
		t.Errorf("the subchart's CRD names %s", f)
	}
}

func TestHelmSkipCRDs(t *testing.T) {
	res := loadChartT(t, crdChart, helm.Options{ReleaseName: "g", SkipCRDs: true})
	for _, o := range res.Objects {
		if o.Kind == "CustomResourceDefinition" {
			t.Errorf("SkipCRDs rendered %s from %s", o.Name, o.File)
		}
	}
	if len(res.Objects) != 3 {
		t.Errorf("objects %v, want the 3 templates", kindsNames(res.Objects))
	}
}

func TestHelmCRDsOfDisabledSubchart(t *testing.T) {
	res := loadChartT(t, crdChart, helm.Options{ReleaseName: "g", Set: []string{"widgets.enabled=false"}})
	got := kindsNames(res.Objects)
	want := []string{"CustomResourceDefinition/gadgets.example.com", "ConfigMap/g-settings", "Gadget/g"}
	if !slices.Equal(got, want) {
		t.Fatalf("objects %v, want %v (a disabled subchart's CRDs left out, as helm install does)", got, want)
	}
}

// A block scalar that ends a template whose last line break the template
// trims keeps that line break, as helm's installed manifest has it (found
// by test/helmdiff on prometheus' rules ConfigMap).
func TestHelmLastBlockScalarLineBreak(t *testing.T) {
	dir := t.TempDir()
	filetree.Write(t, dir, map[string]string{
		"Chart.yaml":        "apiVersion: v2\nname: c\nversion: 0.1.0\n",
		"templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: rules\ndata:\n  rules: |\n    {}\n{{- \"\" }}",
	})
	res := loadChartT(t, dir, helm.Options{})
	if len(res.Objects) != 1 {
		t.Fatalf("objects %v problems %v", kindsNames(res.Objects), res.Problems)
	}
	if got := res.Objects[0].Content["data"].(map[string]any)["rules"]; got != "{}\n" {
		t.Errorf("rules = %q, want %q", got, "{}\n")
	}
}
