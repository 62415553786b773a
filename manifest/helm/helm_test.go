package helm_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/testing/filetree"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/manifest/helm"
	"github.com/kubeplan/kubeplan/manifest/loader"
	chartutil "helm.sh/helm/v4/pkg/chart/v2/util"
)

const shop = "../../testdata/charts/shop"

func loadChartT(t *testing.T, path string, h helm.Options) *loader.Result {
	t.Helper()
	res, err := loader.Load([]string{path}, loader.Options{Helm: h})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func objKeys(objs []*manifest.Object) []string {
	var out []string
	for _, o := range objs {
		out = append(out, fmt.Sprintf("%s/%s %s", o.Kind, o.Name, o.File))
	}
	sort.Strings(out)
	return out
}

// .Capabilities.APIVersions is what the Kubernetes version serves, as on
// a real cluster: apiregistration.k8s.io/v1 (which helm's built-in set
// lacks, so public charts fall back to the removed v1beta1) and not
// policy/v1beta1 PodSecurityPolicy, on every indexed version.
func TestHelmCapabilitiesFollowKubeVersion(t *testing.T) {
	dir := t.TempDir()
	filetree.Write(t, dir, map[string]string{
		"Chart.yaml": "apiVersion: v2\nname: caps\nversion: 0.1.0\n",
		"templates/cm.yaml": `apiVersion: v1
kind: ConfigMap
metadata:
  name: caps-{{ .Capabilities.KubeVersion.Minor }}
data:
  apiservice: {{ .Capabilities.APIVersions.Has "apiregistration.k8s.io/v1" | quote }}
  apiservice-kind: {{ .Capabilities.APIVersions.Has "apiregistration.k8s.io/v1/APIService" | quote }}
  psp: {{ .Capabilities.APIVersions.Has "policy/v1beta1/PodSecurityPolicy" | quote }}
  core: {{ .Capabilities.APIVersions.Has "v1" | quote }}
`,
	})
	for _, tc := range []struct{ kube, psp string }{{"", "false"}, {"1.33", "false"}} {
		res := loadChartT(t, dir, helm.Options{KubeVersion: tc.kube})
		if len(res.Objects) != 1 {
			t.Fatalf("%q: %v %v", tc.kube, objKeys(res.Objects), res.Problems)
		}
		data, _ := res.Objects[0].Content["data"].(map[string]any)
		want := map[string]any{"apiservice": "true", "apiservice-kind": "true", "psp": tc.psp, "core": "true"}
		for k, v := range want {
			if data[k] != v {
				t.Errorf("kube %q: %s = %v, want %v", tc.kube, k, data[k], v)
			}
		}
	}
}

func TestHelmRenderShop(t *testing.T) {
	res := loadChartT(t, shop, helm.Options{})
	if len(res.Problems) > 0 {
		t.Fatalf("problems: %v", res.Problems)
	}
	want := []string{
		"CustomResourceDefinition/orders.shop.example.com " + shop + "/crds/orders.yaml",
		"Deployment/release-name-shop " + shop + "/templates/deployment.yaml",
		"Job/release-name-shop-migrate " + shop + "/templates/migrate-job.yaml",
		"Service/release-name-redis " + shop + "/charts/redis/templates/service.yaml",
		"Service/release-name-shop " + shop + "/templates/service.yaml",
		"StatefulSet/release-name-redis " + shop + "/charts/redis/templates/statefulset.yaml",
	}
	if got := objKeys(res.Objects); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("objects:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, o := range res.Objects {
		switch o.Kind {
		case "Deployment":
			// the library chart's labels, the release defaults
			if got := o.Labels()["app.kubernetes.io/managed-by"]; got != "Helm" {
				t.Errorf("managed-by = %q", got)
			}
			// lines of the rendered output (5 labels from the library
			// chart make it longer than the template)
			if p := o.KeyPos("spec", "selector"); p != (manifest.Pos{Line: 13, Col: 3}) {
				t.Errorf("spec.selector at %v, want 13:3 of the rendered deployment", p)
			}
		case "Job":
			if got := o.Annotations()["helm.sh/hook"]; got != "pre-install,pre-upgrade" {
				t.Errorf("hook annotation = %q", got)
			}
		}
	}
}

func TestHelmRenderOptions(t *testing.T) {
	res := loadChartT(t, shop, helm.Options{ReleaseName: "web", Namespace: "prod",
		ValuesFiles: []string{shop + "/values-prod.yaml"}, Set: []string{"image.tag=2.3.2"}})
	if len(res.Problems) > 0 {
		t.Fatalf("problems: %v", res.Problems)
	}
	if len(res.Objects) != 6 {
		t.Fatalf("got %d objects, want 6 (a CRD too): %v", len(res.Objects), objKeys(res.Objects))
	}
	if o := res.Objects[0]; o.Kind != "CustomResourceDefinition" || o.File != shop+"/crds/orders.yaml" {
		t.Errorf("first object %s from %s, want the CRD from crds/orders.yaml", o.Kind, o.File)
	}
	for _, o := range res.Objects {
		switch o.Kind {
		case "Deployment":
			if o.Name != "web-shop" {
				t.Errorf("name %s", o.Name)
			}
			c := o.Content["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)
			if c["image"] != "ghcr.io/example/shop:2.3.2" {
				t.Errorf("image %v, want --set to win", c["image"])
			}
			if r := o.Content["spec"].(map[string]any)["replicas"]; fmt.Sprint(r) != "3" {
				t.Errorf("replicas %v, want values-prod's 3", r)
			}
		case "StatefulSet":
			if r := o.Content["spec"].(map[string]any)["replicas"]; fmt.Sprint(r) != "3" {
				t.Errorf("redis replicas %v, want 3 (values-prod sets redis.architecture)", r)
			}
		}
	}
}

func TestHelmValuesBlame(t *testing.T) {
	res := loadChartT(t, shop, helm.Options{ValuesFiles: []string{shop + "/values-dev.yaml"}})
	var dep *manifest.Object
	for _, o := range res.Objects {
		if o.Kind == "Deployment" {
			dep = o
		}
	}
	if dep == nil {
		t.Fatal("no deployment")
	}
	pp := []string{"spec", "template", "spec", "containers", "0", "imagePullPolicy"}
	if f := dep.FileOf(pp...); filepath.ToSlash(f) != shop+"/values-dev.yaml" {
		t.Errorf("imagePullPolicy blamed on %s, want values-dev.yaml", f)
	}
	if p := dep.Pos(pp...); p != (manifest.Pos{Line: 5, Col: 15}) {
		t.Errorf("imagePullPolicy at %v, want values-dev.yaml:5:15", p)
	}
	// replicas is not overridden: values.yaml line 2
	if f := dep.FileOf("spec", "replicas"); filepath.ToSlash(f) != shop+"/values.yaml" {
		t.Errorf("replicas blamed on %s, want values.yaml", f)
	}
	if p := dep.Pos("spec", "replicas"); p != (manifest.Pos{Line: 2, Col: 15}) {
		t.Errorf("replicas at %v, want values.yaml:2:15", p)
	}
	// a computed value stays in the rendered output
	if f := dep.FileOf("metadata", "name"); f != shop+"/templates/deployment.yaml" {
		t.Errorf("name blamed on %s", f)
	}
}

func TestHelmTestHooksDropped(t *testing.T) {
	res := loadChartT(t, shop, helm.Options{})
	for _, o := range res.Objects {
		if o.Kind == "Pod" {
			t.Errorf("test hook %s rendered", o.Name)
		}
	}
}

func TestHelmErrors(t *testing.T) {
	const b = "../../testdata/charts/broken/"
	for _, tc := range []struct {
		chart, want string
	}{
		{"nilpointer", b + `nilpointer/templates/configmap.yaml:7:23: helm-template: executing "nilpointer/templates/configmap.yaml" at <.Values.missing.key>: nil pointer evaluating interface {}.key`},
		{"required", b + "required/templates/secret.yaml:6:16: helm-template: a database password is required: set db.password"},
		{"missingdep", b + `missingdep/Chart.yaml:9:5: helm-dependency: dependency "redis" is missing from charts/: run helm dependency build (kubeplan never downloads)`},
		{"requirements", b + `requirements/requirements.yaml:2:5: helm-dependency: dependency "grafana" is missing from charts/: run helm dependency build (kubeplan never downloads)`},
		{"parse", b + "parse/templates/deployment.yaml:7:1: helm-template: parse error: unclosed action started at parse/templates/deployment.yaml:6"},
		{"badchart", b + "badchart/Chart.yaml:4:1: helm-chart: chart does not load: cannot load Chart.yaml: error converting YAML to JSON: yaml: line 4: did not find expected ',' or ']'"},
	} {
		t.Run(tc.chart, func(t *testing.T) {
			res := loadChartT(t, b+tc.chart, helm.Options{})
			if len(res.Problems) != 1 {
				t.Fatalf("got %d problems, want 1: %v", len(res.Problems), res.Problems)
			}
			p := res.Problems[0]
			if got := fmt.Sprintf("%s:%d:%d: %s: %s", p.File, p.Line, p.Col, p.Rule, p.Message); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestHelmLookupWarning(t *testing.T) {
	res := loadChartT(t, "../../testdata/charts/broken/lookup", helm.Options{})
	if len(res.Objects) != 1 || res.Objects[0].Content["data"].(map[string]any)["token"] != "generated" {
		t.Fatalf("objects %v: lookup must return nothing", objKeys(res.Objects))
	}
	if len(res.Problems) != 1 {
		t.Fatalf("problems %v", res.Problems)
	}
	p := res.Problems[0]
	if !p.Warning || p.Rule != "helm-lookup" || p.File != "../../testdata/charts/broken/lookup/templates/configmap.yaml" || p.Pos != (manifest.Pos{Line: 1, Col: 18}) {
		t.Errorf("got %+v", p)
	}
}

func TestHelmValuesSchema(t *testing.T) {
	const c = "../../testdata/charts/broken/schema"
	res := loadChartT(t, c, helm.Options{ValuesFiles: []string{c + "/values-bad.yaml"}})
	var got []string
	for _, p := range res.Problems {
		got = append(got, fmt.Sprintf("%s:%d:%d: %s: %s", p.File, p.Line, p.Col, p.Rule, p.Message))
	}
	sort.Strings(got)
	want := []string{
		c + "/values-bad.yaml:1:1: helm-values-schema: values key replicas: got string, want integer (values.schema.json of chart schema)",
		c + "/values-bad.yaml:3:3: helm-values-schema: values key image.tag: got number, want string (values.schema.json of chart schema)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(res.Objects) != 0 {
		t.Errorf("rendered %d objects despite schema violations", len(res.Objects))
	}
}

func TestHelmValuesFileOutsideRepository(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "values.yaml")
	filetree.Write(t, filepath.Dir(outside), map[string]string{"values.yaml": "replicaCount: 2\n"})
	_, err := loader.Load([]string{shop}, loader.Options{Helm: helm.Options{ValuesFiles: []string{outside}}})
	if err == nil || !strings.Contains(err.Error(), "refused") {
		t.Fatalf("err = %v, want a refusal", err)
	}
}

func TestHelmOffline(t *testing.T) {
	t.Setenv("HTTP_PROXY", "http://127.0.0.1:1")
	t.Setenv("HTTPS_PROXY", "http://127.0.0.1:1")
	t.Setenv("PATH", t.TempDir()) // no helm binary
	res := loadChartT(t, shop, helm.Options{})
	if len(res.Problems) > 0 || len(res.Objects) != 6 {
		t.Fatalf("offline: %d objects, problems %v", len(res.Objects), res.Problems)
	}
}

func TestHelmWalkRendersCharts(t *testing.T) {
	res := loadChartT(t, "../../testdata/charts", helm.Options{})
	files := map[string]bool{}
	for _, o := range res.Objects {
		files[o.File] = true
	}
	if !files[shop+"/templates/deployment.yaml"] {
		t.Errorf("walking testdata/charts did not render shop: %v", objKeys(res.Objects))
	}
	for _, p := range res.Problems {
		if strings.Contains(p.Message, "no kind") || p.Rule == "invalid-yaml" {
			t.Errorf("a template read as a plain manifest: %v", p)
		}
	}
}

func TestHelmPackagedChart(t *testing.T) {
	ch, err := helm.LoadChart(shop, "")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	tgz, err := chartutil.Save(ch, dir)
	if err != nil {
		t.Fatal(err)
	}
	res := loadChartT(t, tgz, helm.Options{})
	if len(res.Problems) > 0 || len(res.Objects) != 6 { // the CRD of crds/ too
		t.Fatalf("%d objects, problems %v", len(res.Objects), res.Problems)
	}
	for _, o := range res.Objects {
		if !strings.HasPrefix(o.File, tgz+string(filepath.Separator)) {
			t.Errorf("object from %s, want inside %s", o.File, tgz)
		}
	}
	// walked into
	if res := loadChartT(t, dir, helm.Options{}); len(res.Objects) != 6 { // the CRD of crds/ too
		t.Errorf("walking a directory with a .tgz: %d objects", len(res.Objects))
	}
}

func TestHelmKubeVersionConstraint(t *testing.T) {
	dir := t.TempDir()
	filetree.Write(t, dir, map[string]string{
		"Chart.yaml":        "apiVersion: v2\nname: old\nversion: 0.1.0\nkubeVersion: \"<1.25.0-0\"\n",
		"templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: v{{ .Capabilities.KubeVersion.Minor }}\n",
	})
	res := loadChartT(t, dir, helm.Options{})
	if len(res.Problems) != 1 || res.Problems[0].Pos != (manifest.Pos{Line: 4, Col: 14}) || !strings.Contains(res.Problems[0].Message, "v1.37.0") {
		t.Fatalf("problems %v", res.Problems)
	}
	res = loadChartT(t, dir, helm.Options{KubeVersion: "1.24"})
	if len(res.Problems) != 0 || len(res.Objects) != 1 || res.Objects[0].Name != "v24" {
		t.Fatalf("with 1.24: objects %v problems %v", objKeys(res.Objects), res.Problems)
	}
}

func TestHelmChartYAMLArgument(t *testing.T) {
	res := loadChartT(t, shop+"/Chart.yaml", helm.Options{})
	if len(res.Objects) != 6 || len(res.Problems) != 0 { // the CRD of crds/ too
		t.Fatalf("naming Chart.yaml: %d objects, problems %v", len(res.Objects), res.Problems)
	}
}

func TestHelmValuesSchemaRequired(t *testing.T) {
	res := loadChartT(t, shop, helm.Options{Set: []string{"service=null", "image.tag=null"}})
	var got []string
	for _, p := range res.Problems {
		got = append(got, fmt.Sprintf("%s:%d:%d: %s", p.File, p.Line, p.Col, p.Message))
	}
	sort.Strings(got)
	want := []string{
		shop + "/values.yaml:1:1: values key (top): missing property 'service' (values.schema.json of chart shop)",
		shop + "/values.yaml:4:1: values key image: missing property 'tag' (values.schema.json of chart shop)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestHelmVendoredArchiveSubchart(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "shop")
	if err := os.CopyFS(dir, os.DirFS(shop)); err != nil {
		t.Fatal(err)
	}
	redis, err := helm.LoadChart(filepath.Join(dir, "charts", "redis"), "")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, "charts", "redis")); err != nil {
		t.Fatal(err)
	}
	if _, err := chartutil.Save(redis, filepath.Join(dir, "charts")); err != nil { // charts/redis-17.3.2.tgz
		t.Fatal(err)
	}
	res := loadChartT(t, dir, helm.Options{})
	if len(res.Problems) > 0 || len(res.Objects) != 6 { // the CRD of crds/ too
		t.Fatalf("%d objects, problems %v", len(res.Objects), res.Problems)
	}
	files := objKeys(res.Objects)
	if want := "StatefulSet/release-name-redis " + filepath.Join(dir, "charts/redis/templates/statefulset.yaml"); !slices.Contains(files, want) {
		t.Errorf("objects %v, want %s", files, want)
	}
}

func TestHelmAPIVersions(t *testing.T) {
	dir := t.TempDir()
	filetree.Write(t, dir, map[string]string{
		"Chart.yaml": "apiVersion: v2\nname: caps\nversion: 0.1.0\n",
		"templates/monitor.yaml": `{{- if .Capabilities.APIVersions.Has "monitoring.coreos.com/v1" }}
apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata:
  name: web
{{- end }}
{{- if .Capabilities.APIVersions.Has "apps/v1" }}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: apps
{{- end }}
`,
	})
	if res := loadChartT(t, dir, helm.Options{}); len(res.Objects) != 1 {
		t.Errorf("default API versions: %v", objKeys(res.Objects))
	}
	if res := loadChartT(t, dir, helm.Options{APIVersions: []string{"monitoring.coreos.com/v1"}}); len(res.Objects) != 2 {
		t.Errorf("with monitoring.coreos.com/v1: %v", objKeys(res.Objects))
	}
}

func TestHelmIgnore(t *testing.T) {
	dir := t.TempDir()
	filetree.Write(t, dir, map[string]string{
		"Chart.yaml":           "apiVersion: v2\nname: ig\nversion: 0.1.0\n",
		".helmignore":          "# local only\ntemplates/debug.yaml\n",
		"templates/cm.yaml":    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: kept\n",
		"templates/debug.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ignored\n",
		"templates/.#cm.yaml":  "not: [yaml",
	})
	res := loadChartT(t, dir, helm.Options{})
	if len(res.Problems) > 0 || len(res.Objects) != 1 || res.Objects[0].Name != "kept" {
		t.Errorf("objects %v problems %v", objKeys(res.Objects), res.Problems)
	}
}

func TestHelmFail(t *testing.T) {
	dir := t.TempDir()
	filetree.Write(t, dir, map[string]string{
		"Chart.yaml":        "apiVersion: v2\nname: f\nversion: 0.1.0\n",
		"values.yaml":       "mode: blue\n",
		"templates/_h.tpl":  "{{- define \"f.mode\" -}}\n{{- if not (has .Values.mode (list \"a\" \"b\")) -}}\n{{- fail (printf \"mode %q is not\\nsupported\" .Values.mode) -}}\n{{- end -}}\n{{- end -}}\n",
		"templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  annotations:\n    mode: {{ include \"f.mode\" . | quote }}\n",
	})
	res := loadChartT(t, dir, helm.Options{})
	if len(res.Problems) != 1 {
		t.Fatalf("problems %v", res.Problems)
	}
	p := res.Problems[0]
	if want := filepath.Join(dir, "templates/cm.yaml"); p.File != want || p.Line != 6 || p.Rule != "helm-template" || p.Message != `mode "blue" is not supported` {
		t.Errorf("got %s:%d:%d %s %q", p.File, p.Line, p.Col, p.Rule, p.Message)
	}
}

func TestHelmSubchartValuesBlame(t *testing.T) {
	res := loadChartT(t, shop, helm.Options{})
	for _, o := range res.Objects {
		if o.Kind != "Service" || o.Name != "release-name-redis" {
			continue
		}
		// port: {{ .Values.port }} comes from the subchart's values.yaml
		if f := o.FileOf("spec", "ports", "0", "port"); f != shop+"/charts/redis/values.yaml" {
			t.Errorf("port blamed on %s", f)
		}
		if p := o.Pos("spec", "ports", "0", "port"); p != (manifest.Pos{Line: 5, Col: 7}) {
			t.Errorf("port at %v, want charts/redis/values.yaml:5:7", p)
		}
		return
	}
	t.Fatal("no redis service")
}
