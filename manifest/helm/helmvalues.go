package helm

import (
	"bytes"
	"fmt"
	"path/filepath"

	"github.com/kubeplan/kubeplan/internal/confine"
	"github.com/kubeplan/kubeplan/manifest"
	yaml "go.yaml.in/yaml/v3"
	chart "helm.sh/helm/v4/pkg/chart/v2"
	"helm.sh/helm/v4/pkg/chart/v2/loader"
	"helm.sh/helm/v4/pkg/strvals"
)

// helmVals are the values a chart is rendered with and where each came
// from, for blame and for schema problems.
type helmVals struct {
	// merged are the user-supplied values (-f files, then --set), as helm
	// passes them to be coalesced over the chart's values.yaml.
	merged map[string]any
	// files are values.yaml then the -f files in order, parsed as nodes.
	files []valuesFile
}

// valuesFile is one values file and its parsed tree.
type valuesFile struct {
	path string
	root *yaml.Node // the top mapping, nil when empty
}

// helmValues reads Options.ValuesFiles (through confine.ReadFile: a file
// outside root is an error) and Set, as helm's -f and --set do.
func helmValues(path string, ch *chart.Chart, root string, h Options) (*helmVals, []*manifest.Problem, error) {
	v := &helmVals{merged: loader.MergeMaps(map[string]any{}, h.Values)}
	own := filepath.Join(path, "values.yaml")
	for _, f := range ch.Raw {
		if f.Name == "values.yaml" {
			v.files = append(v.files, valuesFile{path: own, root: topMapping(f.Data)})
		}
	}
	if len(v.files) == 0 {
		v.files = append(v.files, valuesFile{path: own})
	}
	for _, vf := range h.ValuesFiles {
		data, err := confine.ReadFile(vf, root)
		if err != nil {
			return nil, nil, fmt.Errorf("helm values file: %w", err)
		}
		m, err := loader.LoadValues(bytes.NewReader(data))
		if err != nil {
			return nil, []*manifest.Problem{{File: vf, Pos: manifest.Pos{Line: 1, Col: 1}, Rule: "invalid-yaml", Message: OneLine(err.Error())}}, nil
		}
		v.merged = loader.MergeMaps(v.merged, m)
		v.files = append(v.files, valuesFile{path: vf, root: topMapping(data)})
	}
	for _, s := range h.Set {
		if err := strvals.ParseInto(s, v.merged); err != nil {
			return nil, nil, fmt.Errorf("helm --set %q: %w", s, err)
		}
	}
	return v, nil, nil
}

// topFile is the chart's values.yaml, where problems about values no file
// set are reported.
func (v *helmVals) topFile() string { return v.files[0].path }

// find is the last values file that sets the key at path, with the key
// and value nodes ("" when none does: a --set or a default).
func (v *helmVals) find(path []string) (file string, key, val *yaml.Node) {
	return findIn(v.files, path)
}

// findIn is find over files.
func findIn(files []valuesFile, path []string) (file string, key, val *yaml.Node) {
	for i := len(files) - 1; i >= 0; i-- {
		cur := files[i].root
		var k *yaml.Node
		for _, p := range path {
			cur = manifest.Deref(cur)
			if cur == nil || cur.Kind != yaml.MappingNode {
				cur = nil
				break
			}
			k, cur = manifest.MapEntry(cur, p)
			if k == nil {
				cur = nil
				break
			}
		}
		if cur != nil {
			return files[i].path, k, cur
		}
	}
	return "", nil, nil
}

// topMapping parses data into its top mapping node, nil when it is not one.
func topMapping(data []byte) *yaml.Node {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil || len(doc.Content) == 0 {
		return nil
	}
	if n := doc.Content[0]; n.Kind == yaml.MappingNode {
		return n
	}
	return nil
}
