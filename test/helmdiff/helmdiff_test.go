package helmdiff

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"helm.sh/helm/v4/pkg/chart/common"

	"github.com/kubeplan/kubeplan/internal/benchkit"
	"github.com/kubeplan/kubeplan/internal/kubeapi"
	"github.com/kubeplan/kubeplan/internal/testing/publicdata"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/manifest/helm"
	"github.com/kubeplan/kubeplan/manifest/loader"
)

// helmCLI is the reference: the helm CLI v4.3.1, built from the Go module
// proxy into .bench/helm/bin once (a few minutes the first time).
var helmCLI = benchkit.GoTool{Module: "helm.sh/helm/v4", Pkg: "helm.sh/helm/v4/cmd/helm", Version: "v4.3.1", Bin: ".bench/helm/bin/helm"}

const (
	release   = "diff"
	namespace = "helmdiff"
	// kubeVersion is what both sides render for (.Capabilities.KubeVersion).
	kubeVersion = "1.37"
)

var (
	helmOnce sync.Once
	helmBin  string
	helmErr  error
)

// helmBinary builds (once) and returns the helm CLI.
func helmBinary(t *testing.T) string {
	t.Helper()
	helmOnce.Do(func() {
		root, err := benchkit.ModuleRoot()
		if err != nil {
			helmErr = err
			return
		}
		helmBin, helmErr = helmCLI.Install(root)
	})
	if helmErr != nil {
		t.Fatalf("building the helm CLI: %v", helmErr)
	}
	return helmBin
}

// chart is one line of charts.txt: a public chart, where it came from.
type chart struct {
	Name, Repository, Commit, Path string
}

func readCharts(t *testing.T) []chart {
	t.Helper()
	f, err := os.Open("charts.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []chart
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.Fields(line)
		if len(fs) != 4 {
			t.Fatalf("charts.txt: %q: want NAME REPOSITORY COMMIT PATH", line)
		}
		out = append(out, chart{fs[0], fs[1], fs[2], fs[3]})
	}
	return out
}

// chartsDir is where the public charts are staged (publicdata: they are
// not committed). Each is NAME/chart (with its dependencies in charts/),
// NAME/LICENSE and NAME/SOURCE.
func chartsDir(t *testing.T) string {
	t.Helper()
	return publicdata.Dir(t, "charts")
}

// apiVersions are the API versions both sides get: what the API index
// serves for kubeVersion (kubeplan's own set) plus helm's built-in set.
func apiVersions(t *testing.T) (served, builtin []string) {
	t.Helper()
	ix, err := kubeapi.Index()
	if err != nil {
		t.Fatal(err)
	}
	return ix.APIVersions(kubeVersion), []string(common.DefaultCapabilities.APIVersions)
}

func TestHelmTemplateEquality(t *testing.T) {
	start := time.Now()
	bin := helmBinary(t)
	dir := chartsDir(t)
	charts := readCharts(t)
	if len(charts) < 25 {
		t.Fatalf("charts.txt lists %d charts, want at least 25", len(charts))
	}
	served, builtin := apiVersions(t)
	sem := make(chan struct{}, 2)
	t.Run("charts", func(t *testing.T) {
		for _, c := range charts {
			c := c
			t.Run(c.Name, func(t *testing.T) {
				t.Parallel()
				sem <- struct{}{}
				defer func() { <-sem }()
				base := filepath.Join(dir, c.Name)
				checkSource(t, base, c)
				chartPath := filepath.Join(base, "chart")
				compare(t, bin, chartPath, nil, served, builtin)
				copyPath, override := withOverride(t, chartPath, filepath.Join("..", "..", "testdata", "helmdiff", c.Name+".yaml"))
				compare(t, bin, copyPath, []string{override}, served, builtin)
			})
		}
	})
	t.Logf("%d charts, 2 values sets each, in %s", len(charts), time.Since(start).Round(time.Second))
}

// TestHelmTemplateEqualityOwnCharts judges the charts of testdata/charts
// (written here in the shapes public charts have: a library of helpers,
// subcharts as directories and .tgz, crds/, hooks, lookup, generated
// passwords and certificates, values.schema.json) the same way, with
// their own values and every values*.yaml beside them: they are always
// there, the public charts only where they are staged.
func TestHelmTemplateEqualityOwnCharts(t *testing.T) {
	bin := helmBinary(t)
	served, builtin := apiVersions(t)
	dirs, err := filepath.Glob(filepath.Join("..", "..", "testdata", "charts", "*", "Chart.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, cy := range dirs {
		chartPath := filepath.Dir(cy)
		t.Run(filepath.Base(chartPath), func(t *testing.T) {
			compare(t, bin, chartPath, nil, served, builtin)
			extra, _ := filepath.Glob(filepath.Join(chartPath, "values?*.yaml"))
			for _, v := range extra {
				abs, err := filepath.Abs(v)
				if err != nil {
					t.Fatal(err)
				}
				compare(t, bin, chartPath, []string{abs}, served, builtin)
			}
		})
		n++
	}
	if n < 8 {
		t.Fatalf("%d charts under testdata/charts, want at least 8", n)
	}
}

// withOverride copies the chart to a directory of the test with the
// override values file inside it (kubeplan reads a values file only inside
// the chart when the chart is outside the checkout), kept out of the
// chart's files by its .helmignore, so both sides read the same chart.
func withOverride(t *testing.T, chartPath, values string) (string, string) {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(chartPath))
	if err := os.CopyFS(dst, os.DirFS(chartPath)); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(values)
	if err != nil {
		t.Fatal(err)
	}
	override := filepath.Join(dst, ".kubeplan-override.yaml")
	if err := os.WriteFile(override, b, 0o644); err != nil {
		t.Fatal(err)
	}
	ignore, err := os.OpenFile(filepath.Join(dst, ".helmignore"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer ignore.Close()
	if _, err := ignore.WriteString("\n.kubeplan-override.yaml\n"); err != nil {
		t.Fatal(err)
	}
	return dst, override
}

// checkSource checks that the chart's directory keeps its licence and
// names where it came from, as charts.txt does.
func checkSource(t *testing.T, base string, c chart) {
	t.Helper()
	if fi, err := os.Stat(filepath.Join(base, "LICENSE")); err != nil || fi.Size() == 0 {
		t.Errorf("%s: no LICENSE (%v)", base, err)
	}
	src, err := os.ReadFile(filepath.Join(base, "SOURCE"))
	if err != nil {
		t.Fatalf("%s: %v (charts public data must name their source)", base, err)
	}
	for _, want := range []string{c.Repository, c.Commit, c.Path} {
		if !bytes.Contains(src, []byte(want)) {
			t.Errorf("%s/SOURCE does not name %s (charts.txt does)", base, want)
		}
	}
}

// compare renders chartPath with the values files on both sides and
// reports every object one side has and the other lacks, and every field
// that differs once the generated ones are masked.
func compare(t *testing.T, bin, chartPath string, values, served, builtin []string) {
	t.Helper()
	what := "its own values"
	if len(values) > 0 {
		what = filepath.Base(values[0])
	}
	res, err := loader.Load([]string{chartPath}, loader.Options{Helm: helm.Options{
		ReleaseName: release, Namespace: namespace, ValuesFiles: values, KubeVersion: kubeVersion, APIVersions: builtin}})
	if err != nil {
		t.Errorf("with %s: kubeplan: %v", what, err)
		return
	}
	var kpErrs []string
	for _, p := range res.Problems {
		if !p.Warning && !p.Info {
			kpErrs = append(kpErrs, fmt.Sprintf("%s:%d:%d: %s: %s", p.File, p.Pos.Line, p.Pos.Col, p.Rule, p.Message))
		}
	}
	h1, err := helmTemplate(bin, chartPath, values, served)
	if err != nil {
		// Both refuse the chart with these values (a required value, a
		// values.schema.json violation): that is agreement.
		if len(values) > 0 {
			t.Errorf("with %s: the override must render: %v", what, err)
		} else if len(kpErrs) == 0 {
			t.Errorf("with %s: helm template fails, kubeplan renders %d objects without an error: %v", what, len(res.Objects), err)
		} else {
			t.Logf("with %s: both refuse it: helm: %s; kubeplan: %s", what, firstLine(err.Error()), kpErrs[0])
		}
		return
	}
	for _, e := range kpErrs {
		t.Errorf("with %s: helm template renders it, kubeplan: %s", what, e)
	}
	h2, err := helmTemplate(bin, chartPath, values, served)
	if err != nil {
		t.Errorf("with %s: second run: %v", what, err)
		return
	}
	kp := objects{}
	kept := map[string][]manifest.KeptField{}
	for _, o := range res.Objects {
		c := normalize(o.Content).(map[string]any)
		k := key(c)
		if _, dup := kp[k]; dup {
			t.Errorf("with %s: kubeplan renders %s twice", what, k)
		}
		kp[k] = c
		kept[k] = o.Kept
	}
	keys := map[string]bool{}
	for k := range h1 {
		keys[k] = true
	}
	for k := range kp {
		keys[k] = true
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	masked := 0
	for _, k := range sorted {
		a, inHelm := h1[k]
		b, inKP := kp[k]
		switch {
		case !inHelm:
			t.Errorf("with %s: %s: kubeplan renders it, helm template does not", what, k)
			continue
		case !inKP:
			t.Errorf("with %s: %s: helm template renders it, kubeplan does not", what, k)
			continue
		}
		gen := map[string]bool{}
		generated(a, h2[k], nil, gen)
		for _, f := range kept[k] {
			gen[strings.Join(f.Path, ".")] = true
		}
		masked += len(gen)
		ma, mb := mask(a, nil, gen), mask(b, nil, gen)
		if !reflect.DeepEqual(ma, mb) {
			var diffs []string
			differences(ma, mb, nil, &diffs, 5)
			if d := os.Getenv("HELMDIFF_DUMP"); d != "" {
				ja, _ := json.MarshalIndent(ma, "", " ")
				jb, _ := json.MarshalIndent(mb, "", " ")
				n := strings.NewReplacer("/", "_").Replace(k)
				_ = os.WriteFile(filepath.Join(d, n+".helm.json"), ja, 0o644)
				_ = os.WriteFile(filepath.Join(d, n+".kubeplan.json"), jb, 0o644)
			}
			t.Errorf("with %s: %s differs:\n\t%s", what, k, strings.Join(diffs, "\n\t"))
		}
	}
	if len(h1) == 0 {
		t.Errorf("with %s: helm template renders no object", what)
	}
	t.Logf("with %s: %d objects equal (%d generated fields masked)", what, len(h1), masked)
}

// helmTemplate runs helm template as kubeplan renders: the same release,
// namespace, Kubernetes version and API versions, CRDs included, test
// hooks left out (kubeplan drops them).
func helmTemplate(bin, chartPath string, values, served []string) (objects, error) {
	args := []string{"template", release, chartPath, "--namespace", namespace, "--include-crds", "--skip-tests",
		"--kube-version", "v" + kubeVersion + ".0", "--api-versions", strings.Join(served, ",")}
	for _, v := range values {
		args = append(args, "-f", v)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	home := os.TempDir()
	// No repository, registry or plugin is read: an empty Helm home.
	cmd.Env = append(os.Environ(), "HELM_CACHE_HOME="+filepath.Join(home, "helmdiff-cache"),
		"HELM_CONFIG_HOME="+filepath.Join(home, "helmdiff-config"), "HELM_DATA_HOME="+filepath.Join(home, "helmdiff-data"))
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("helm %s: %w\n%s", strings.Join(args[:3], " "), err, errb.String())
	}
	return parseStream(out.Bytes())
}

// firstLine is the first line of s that says something (helm prints a
// deprecation warning before its error).
func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "level=") {
			if i := strings.Index(s, "Error:"); i >= 0 {
				return strings.SplitN(s[i:], "\n", 2)[0]
			}
			return l
		}
	}
	return s
}
