package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/kubeplan/kubeplan/internal/benchkit"
)

// scenario is one chart the benchmark measures.
type scenario struct {
	// Name names it in -scenarios and in the report.
	Name string
	// Chart is its directory, relative to the module root.
	Chart string
	// Release is the release name helm template is given (kubeplan lint
	// renders as release-name: the objects are the same, their names not).
	Release string
	// Real says the chart is a public one, vendored (its CRDs are given to
	// kubeconform as strict schemas, its test hooks left out: kubeplan
	// drops them).
	Real bool
	// About describes the chart in the report.
	About string
}

// scenarios are what `make bench-helm` measures, in order.
var scenarios = []scenario{
	{Name: "synthetic", Chart: "testdata/charts/bench", Release: "bench",
		About: "a shop of six services with a cache and a database subchart, written for the benchmark, no CRDs"},
	{Name: "kube-prometheus-stack", Chart: "testdata/charts/public/kube-prometheus-stack", Release: "kps", Real: true,
		About: "kube-prometheus-stack 88.5.3 as published, with its subcharts (crds, grafana, kube-state-metrics, prometheus-node-exporter, prometheus-windows-exporter; testdata/charts/public/kube-prometheus-stack/SOURCE.md) and its 10 CRDs (4.6 MiB), default values"},
}

// pickScenarios are the scenarios named in list (comma-separated).
func pickScenarios(list string) ([]scenario, error) {
	var out []scenario
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		found := false
		for _, s := range scenarios {
			if s.Name == name {
				out, found = append(out, s), true
			}
		}
		if !found {
			var names []string
			for _, s := range scenarios {
				names = append(names, s.Name)
			}
			return nil, fmt.Errorf("-scenarios: no scenario %q (there are %s)", name, strings.Join(names, ", "))
		}
	}
	return out, nil
}

// crdFiles are the YAML files in the crds/ directories of the chart and
// its subcharts: what helm template --include-crds prints first.
func crdFiles(chartDir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(chartDir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !(strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
			return nil
		}
		// under crds/ of a chart (a directory holding Chart.yaml): a
		// subchart may itself be called crds
		for dir := filepath.Dir(p); strings.HasPrefix(dir, chartDir); dir = filepath.Dir(dir) {
			if filepath.Base(dir) == "crds" && benchkit.FileExists(filepath.Join(filepath.Dir(dir), "Chart.yaml")) {
				out = append(out, p)
				break
			}
			if dir == chartDir {
				break
			}
		}
		return nil
	})
	return out, err
}

// openAPI2JSONSchema runs kubeconform's own scripts/openapi2jsonschema.py
// (from the module cache, as tools/benchlintcrds does) over the CRD
// files, writing kubeconform's strict schemas into out
// ({kind}-{group}-{version}.json, the names -schema-location's
// {{ .ResourceKind }}{{ .KindSuffix }} asks for).
func openAPI2JSONSchema(files []string, out string) error {
	modcache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		return fmt.Errorf("go env GOMODCACHE: %w", err)
	}
	k := benchkit.Kubeconform
	script := filepath.Join(strings.TrimSpace(string(modcache)), "github.com", "yannh", "kubeconform@"+k.Version, "scripts", "openapi2jsonschema.py")
	if _, err := os.Stat(script); err != nil {
		if b, err := exec.Command("go", "mod", "download", k.Module+"@"+k.Version).CombinedOutput(); err != nil {
			return fmt.Errorf("go mod download %s@%s: %w: %s", k.Module, k.Version, err, benchkit.FirstLines(string(b), 5))
		}
	}
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	abs := make([]string, len(files))
	for i, f := range files {
		if abs[i], err = filepath.Abs(f); err != nil {
			return err
		}
	}
	cmd := exec.Command("python3", append([]string{script}, abs...)...)
	cmd.Dir = out
	cmd.Env = append(os.Environ(), "FILENAME_FORMAT={kind}-{group}-{version}")
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("openapi2jsonschema.py (python3 with pyyaml): %w: %s", err, benchkit.FirstLines(string(b), 5))
	}
	return nil
}
