package project

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kubeplan/kubeplan/manifest/helm"
)

// Helm is a Helm chart, rendered (see helm.Options).
const Helm Kind = "helm"

// HelmSettings say how a helm project's chart is rendered. Chart comes
// from discovery or the entry's helm.chart; the others from the entry's
// helm: key (see Load).
type HelmSettings struct {
	// Chart is the chart directory or .tgz, relative to the root with "/".
	Chart string `json:"chart"`
	// Values are values files merged over the chart's values.yaml, in
	// order, relative to the root with "/".
	Values []string `json:"values,omitempty"`
	// Set are "a.b=c" values set on top, as helm's --set.
	Set []string `json:"set,omitempty"`
	// ReleaseName is .Release.Name; Load makes it the project's name when
	// the entry sets none.
	ReleaseName string `json:"releaseName,omitempty"`
	// SkipCRDs leaves out the CRDs of the chart's and its subcharts' crds/
	// (by default they are rendered, and applied first).
	SkipCRDs bool `json:"skipCRDs,omitempty"`
}

// HelmOptions are the manifest loader's options for p's chart, with the
// values files under root; kubeVersion is used when p sets none. The zero
// value for a project that is no chart.
func (p Project) HelmOptions(root, kubeVersion string) helm.Options {
	if p.Helm == nil {
		return helm.Options{}
	}
	h := helm.Options{
		ReleaseName: p.Helm.ReleaseName,
		Namespace:   p.Namespace,
		Set:         slices.Clone(p.Helm.Set),
		SkipCRDs:    p.Helm.SkipCRDs,
		KubeVersion: p.KubeVersion,
	}
	if h.ReleaseName == "" {
		h.ReleaseName = p.Name
	}
	if h.KubeVersion == "" {
		h.KubeVersion = kubeVersion
	}
	for _, v := range p.Helm.Values {
		h.ValuesFiles = append(h.ValuesFiles, filepath.Join(root, filepath.FromSlash(v)))
	}
	return h
}

// ChartPath is where p's chart is, under root ("" for a project that is
// no chart).
func (p Project) ChartPath(root string) string {
	if p.Helm == nil {
		return ""
	}
	return filepath.Join(root, filepath.FromSlash(p.Helm.Chart))
}

// isChart reports whether dir holds a Chart.yaml (a regular file).
func isChart(dir string) bool {
	fi, err := os.Stat(filepath.Join(dir, "Chart.yaml"))
	return err == nil && !fi.IsDir()
}

// chartFiles lists every file of the chart at p (a directory: templates,
// values, charts/ subcharts, Chart.lock, crds/; or a .tgz, itself),
// relative to root with "/", sorted.
func chartFiles(root, p string) []string {
	rel := func(f string) string {
		r, err := filepath.Rel(root, f)
		if err != nil {
			return filepath.ToSlash(f)
		}
		return filepath.ToSlash(r)
	}
	fi, err := os.Stat(p)
	if err != nil || !fi.IsDir() {
		return []string{rel(p)}
	}
	var out []string
	_ = filepath.WalkDir(p, func(f string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, rel(f))
		}
		return nil
	})
	slices.Sort(out)
	return out
}

// helmProject is the helm project of the chart at chart (a directory or
// a .tgz), whose directory is dir, both under root.
func helmProject(root, dir, chart string) Project {
	rel := func(f string) string {
		r, err := filepath.Rel(root, f)
		if err != nil {
			return filepath.ToSlash(f)
		}
		return filepath.ToSlash(r)
	}
	return Project{Path: rel(dir), Kind: Helm, Files: chartFiles(root, chart), Helm: &HelmSettings{Chart: rel(chart)}}
}

// IsChartArchive reports whether p names a packaged chart (.tgz).
func IsChartArchive(p string) bool {
	return strings.HasSuffix(strings.ToLower(p), ".tgz")
}

// chartAt checks that p (a directory or a .tgz) is a chart, for an entry
// that names one.
func chartAt(p string) error {
	fi, err := os.Stat(p)
	switch {
	case err != nil:
		return fmt.Errorf("no chart there: %w", err)
	case fi.IsDir() && !isChart(p):
		return fmt.Errorf("%s holds no Chart.yaml", p)
	case !fi.IsDir() && !IsChartArchive(p):
		return fmt.Errorf("%s is neither a chart directory nor a .tgz", p)
	}
	return nil
}
