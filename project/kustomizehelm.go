package project

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	yaml "go.yaml.in/yaml/v3"
)

// kustomizeHelm is what a kustomization's helmCharts: and helmGlobals:
// say about local charts.
type kustomizeHelm struct {
	HelmGlobals struct {
		ChartHome string `yaml:"chartHome"`
	} `yaml:"helmGlobals"`
	HelmCharts []struct {
		Name                  string   `yaml:"name"`
		Version               string   `yaml:"version"`
		ValuesFile            string   `yaml:"valuesFile"`
		AdditionalValuesFiles []string `yaml:"additionalValuesFiles"`
	} `yaml:"helmCharts"`
}

// helmRefs returns the chart directories (under the chartHome, default
// charts/, as kustomize looks for them: NAME, or NAME-VERSION/NAME) and
// the values files a kustomization's helmCharts: read, relative to its
// directory; nothing when it names none or does not parse. A
// kustomization without the word helmCharts is not parsed again (most
// name no chart; the key written with escapes in a quoted string is not
// looked for).
func helmRefs(data []byte) (charts, files []string) {
	if !bytes.Contains(data, []byte("helmCharts")) {
		return nil, nil
	}
	var k kustomizeHelm
	if yaml.Unmarshal(data, &k) != nil {
		return nil, nil
	}
	home := k.HelmGlobals.ChartHome
	if home == "" {
		home = "charts"
	}
	for _, c := range k.HelmCharts {
		if c.Name == "" {
			continue
		}
		charts = append(charts, filepath.Join(home, c.Name))
		if c.Version != "" {
			charts = append(charts, filepath.Join(home, fmt.Sprintf("%s-%s", c.Name, c.Version), c.Name))
		}
		for _, v := range append([]string{c.ValuesFile}, c.AdditionalValuesFiles...) {
			if isLocalPath(v) {
				files = append(files, v)
			}
		}
	}
	return charts, files
}

// resolveCharts adds the local charts dir's kustomization renders with
// helmCharts: to its files, and marks them used: they are no projects.
func (g *graph) resolveCharts(dir string, n *node) {
	for _, c := range n.charts {
		p := filepath.Clean(filepath.Join(dir, c))
		if !isChart(p) {
			continue
		}
		g.usedCharts[p] = true
		for _, f := range chartFiles(g.root, p) {
			n.files = append(n.files, filepath.Join(g.root, filepath.FromSlash(f)))
		}
	}
	for _, v := range n.helmFiles {
		p := filepath.Clean(filepath.Join(dir, filepath.FromSlash(v)))
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			n.files = append(n.files, p)
		}
	}
}
