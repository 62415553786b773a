package helm

import (
	"path"
	"sort"
	"strings"

	"github.com/kubeplan/kubeplan/manifest"
	chart "helm.sh/helm/v4/pkg/chart/v2"
)

// helmObjects parses the rendered templates into objects, in helm
// template's order (CRDs first when included, then templates by name).
// Each object's File is its template (chartFile), and its positions are
// lines and columns of that template's rendered output, not of the
// template source: the text `helm template` prints under "# Source:".
// Test hooks are dropped; other hooks are kept with their annotations
// unless h.SkipHooks.
// Fields whose value came straight from a values key are blamed on the
// values file that set it (see blameValues).
// crds are the chart's CRDs already being parsed (see parseCRDs); nil
// parses them here.
func helmObjects(chartPath string, ch *chart.Chart, rendered map[string]string, h Options, vals *helmVals, crds *chartCRDs) ([]*manifest.Object, []*manifest.Problem) {
	var objs []*manifest.Object
	var probs []*manifest.Problem
	if !h.SkipCRDs {
		if crds == nil {
			crds = parseCRDs(chartPath, ch)
		}
		o, p := crds.wait()
		objs = append(objs, o...)
		probs = append(probs, p...)
	}
	sources := map[string]templateSource{}
	collectTemplates(chartPath, ch, nil, sources)
	names := make([]string, 0, len(rendered))
	for n := range rendered {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		text := rendered[name]
		switch strings.ToLower(path.Ext(name)) {
		case ".yaml", ".yml", ".json":
		default:
			continue // NOTES.txt and other text files are not objects
		}
		if strings.TrimSpace(text) == "" {
			continue
		}
		if !strings.HasSuffix(text, "\n") {
			// helm ends every document it installs with a line break: a
			// block scalar that ends the template keeps its last one.
			text += "\n"
		}
		file := chartFile(chartPath, name)
		o, p := manifest.Parse(file, []byte(text))
		probs = append(probs, p...)
		src := sources[name]
		for _, obj := range o {
			if isTestHook(obj) || h.SkipHooks && obj.Annotations()["helm.sh/hook"] != "" {
				continue
			}
			blameValues(obj, src, vals)
			obj.Chart = chartPath
			objs = append(objs, obj)
		}
	}
	return objs, probs
}

// templateSource is a template's text, the values path its chart's
// values live under (a subchart's under its name), and a subchart's own
// values.yaml.
type templateSource struct {
	data   []byte
	prefix []string
	own    *valuesFile
}

func collectTemplates(chartPath string, ch *chart.Chart, prefix []string, out map[string]templateSource) {
	var own *valuesFile
	if len(prefix) > 0 {
		for _, f := range ch.Raw {
			if f.Name == "values.yaml" {
				own = &valuesFile{path: chartFile(chartPath, ch.ChartFullPath()+"/values.yaml"), root: topMapping(f.Data)}
			}
		}
	}
	for _, t := range ch.Templates {
		out[ch.ChartFullPath()+"/"+t.Name] = templateSource{data: t.Data, prefix: prefix, own: own}
	}
	for _, d := range ch.Dependencies() {
		collectTemplates(chartPath, d, append(append([]string(nil), prefix...), d.Name()), out)
	}
}

// isTestHook reports whether o is a helm test (helm.sh/hook: test or
// test-success): helm template leaves those to helm test, so does kubeplan.
func isTestHook(o *manifest.Object) bool {
	for _, h := range strings.Split(o.Annotations()["helm.sh/hook"], ",") {
		switch strings.TrimSpace(h) {
		case "test", "test-success":
			return true
		}
	}
	return false
}
