package helm_test

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/testing/filetree"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/manifest/helm"
)

func TestKustomizeHelmCharts(t *testing.T) {
	const k = "../../testdata/charts/kustomized"
	res := loadChartT(t, k, helm.Options{})
	if len(res.Problems) > 0 {
		t.Fatalf("problems: %v", res.Problems)
	}
	want := []string{
		"CustomResourceDefinition/orders.shop.example.com " + k + "/charts/shop/crds/orders.yaml",
		"Deployment/storefront-shop " + k + "/charts/shop/templates/deployment.yaml",
		"Job/storefront-shop-migrate " + k + "/charts/shop/templates/migrate-job.yaml",
		"Namespace/shop-staging " + k + "/namespace.yaml",
		"Service/storefront-shop " + k + "/charts/shop/templates/service.yaml",
	}
	if got := objKeys(res.Objects); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("objects:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, o := range res.Objects {
		if o.Kind != "Deployment" {
			continue
		}
		spec := o.Content["spec"].(map[string]any)
		if spec["replicas"] != int64(2) && spec["replicas"] != float64(2) {
			t.Errorf("replicas %v (%T), want valuesInline's 2", spec["replicas"], spec["replicas"])
		}
		pod := spec["template"].(map[string]any)["spec"].(map[string]any)
		if pod["priorityClassName"] != "standard" {
			t.Errorf("the patch did not apply: %v", pod["priorityClassName"])
		}
		if c := pod["containers"].([]any)[0].(map[string]any); c["image"] != "ghcr.io/example/shop:2.4.0" {
			t.Errorf("image %v, want additionalValuesFiles' tag", c["image"])
		}
		if o.Namespace != "shop-staging" || o.Labels()["env"] != "staging" {
			t.Errorf("namespace %q labels %v", o.Namespace, o.Labels())
		}
		// positions are those of the rendered template
		if p := o.KeyPos("spec", "selector"); p != (manifest.Pos{Line: 13, Col: 3}) {
			t.Errorf("spec.selector at %v, want 13:3 of the rendered template", p)
		}
		if f := o.FileOf("spec", "template", "spec", "priorityClassName"); f != k+"/kustomization.yaml" {
			t.Errorf("patched field blamed on %s", f)
		}
	}
}

func TestKustomizeHelmChartMissing(t *testing.T) {
	dir := t.TempDir()
	filetree.Write(t, dir, map[string]string{"kustomization.yaml": "helmCharts:\n- name: redis\n  repo: https://charts.example.com\n  version: 17.3.2\n"})
	res := loadChartT(t, dir, helm.Options{})
	if len(res.Problems) != 1 {
		t.Fatalf("problems %v", res.Problems)
	}
	p := res.Problems[0]
	if p.Pos != (manifest.Pos{Line: 2, Col: 3}) || p.Rule != "helm-chart" || !strings.Contains(p.Message, "helm pull redis --repo https://charts.example.com --version 17.3.2 --untar --untardir "+dir+"/charts/redis-17.3.2") {
		t.Errorf("got %s %v %s", p.Rule, p.Pos, p.Message)
	}
}

// A chart rendered by kustomize's helmCharts (as helm template: lookup
// finds nothing) keeps its generated fields Kept through the build, but
// for one a patch replaced.
func TestKustomizeHelmChartsKept(t *testing.T) {
	dir := t.TempDir()
	filetree.Write(t, dir, map[string]string{
		"kustomization.yaml": `namespace: db
namePrefix: prod-
helmCharts:
  - name: database
    releaseName: main
patches:
  - target: {kind: Secret}
    patch: |-
      - op: replace
        path: /data/postgres-password
        value: cGF0Y2hlZA==
`,
	})
	if err := os.CopyFS(filepath.Join(dir, "charts/database"), os.DirFS(dbChart)); err != nil {
		t.Fatal(err)
	}
	res := loadChartT(t, dir, helm.Options{})
	var got []string
	for _, o := range res.Objects {
		for _, k := range o.Kept {
			got = append(got, o.Kind+"/"+o.Name+" "+strings.Join(k.Path, ".")+" "+k.Reason)
		}
	}
	sort.Strings(got)
	want := []string{
		"Deployment/prod-main-database spec.template.metadata.annotations.checksum/secret " + manifest.KeptGenerated,
		"Secret/prod-main-database data.password " + manifest.KeptGenerated,
	}
	if !slices.Equal(got, want) {
		t.Errorf("kept %q, want %q", got, want)
	}
}
