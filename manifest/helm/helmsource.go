package helm

import (
	"bytes"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/kubeplan/kubeplan/internal/confine"
	"github.com/kubeplan/kubeplan/manifest"
	"helm.sh/helm/v4/pkg/chart/loader/archive"
	chart "helm.sh/helm/v4/pkg/chart/v2"
	"helm.sh/helm/v4/pkg/chart/v2/loader"
	"helm.sh/helm/v4/pkg/ignore"
)

// IsChartArchive reports whether path names a packaged chart.
func IsChartArchive(path string) bool {
	return strings.HasSuffix(path, ".tgz") || strings.HasSuffix(path, ".tar.gz")
}

// loadChart loads the chart at path, a directory holding Chart.yaml or a
// packaged .tgz, reading every file through confine.ReadFile so that nothing
// outside root is opened (a link leading out is an error). Vendored
// subcharts under charts/ (directories or .tgz) come with it.
func loadChart(path, root string) (*chart.Chart, error) {
	if IsChartArchive(path) {
		data, err := confine.ReadFile(path, root)
		if err != nil {
			return nil, err
		}
		ch, err := loader.LoadArchive(bytes.NewReader(data))
		if err != nil {
			return nil, &chartLoadError{path: path, err: err}
		}
		return ch, nil
	}
	rules, err := helmIgnore(path, root)
	if err != nil {
		return nil, err
	}
	var files []*archive.BufferedFile
	var total int64
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("walking %s: %w", p, err)
		}
		rel, err := filepath.Rel(path, p)
		if err != nil {
			return fmt.Errorf("walking %s: %w", p, err)
		}
		rel = filepath.ToSlash(rel)
		if p != path {
			if fi, err := d.Info(); err == nil && rules.Ignore(rel, fi) {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
		}
		if d.IsDir() {
			if p != path && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") {
			return nil // .helmignore and editor files are not part of a chart
		}
		data, err := confine.ReadFile(p, root)
		if err != nil {
			return err
		}
		if total += int64(len(data)); total > manifest.MaxFileBytes {
			return confine.TooBig(path)
		}
		files = append(files, &archive.BufferedFile{Name: rel, Data: data})
		return nil
	})
	if err != nil {
		return nil, err
	}
	ch, err := loader.LoadFiles(files)
	if err != nil {
		return nil, &chartLoadError{path: path, err: err}
	}
	if err := ch.Validate(); err != nil {
		return nil, &chartLoadError{path: path, err: err}
	}
	return ch, nil
}

// helmIgnore reads the chart's .helmignore (through confine.ReadFile), with
// helm's defaults, as helm's directory loader does.
func helmIgnore(path, root string) (*ignore.Rules, error) {
	rules := ignore.Empty()
	ig := filepath.Join(path, ".helmignore")
	if manifest.FileExists(ig) {
		data, err := confine.ReadFile(ig, root)
		if err != nil {
			return nil, err
		}
		if rules, err = ignore.Parse(bytes.NewReader(data)); err != nil {
			return nil, &chartLoadError{path: path, err: fmt.Errorf(".helmignore: %w", err)}
		}
	}
	rules.AddDefaults()
	return rules, nil
}

// chartFile is the path, as the user names it, of a file of the chart at
// chartPath given helm's name for it ("shop/charts/redis/templates/x.yaml"):
// the chart's own name is replaced by chartPath. Files of a subchart
// packaged as .tgz get the path they would have unpacked.
func chartFile(chartPath, helmName string) string {
	_, rest, ok := strings.Cut(filepath.ToSlash(helmName), "/")
	if !ok {
		return chartPath
	}
	return filepath.Join(chartPath, filepath.FromSlash(rest))
}

// chartLoadError is a chart helm cannot load (a bad Chart.yaml, a broken
// archive): a problem with the input, not a failure to read it.
type chartLoadError struct {
	path string
	err  error
}

func (e *chartLoadError) Error() string {
	return fmt.Sprintf("loading the chart %s: %v", e.path, e.err)
}
func (e *chartLoadError) Unwrap() error { return e.err }
