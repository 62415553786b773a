package kustomize

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/kubeplan/kubeplan/internal/confine"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/manifest/helm"
	yaml "go.yaml.in/yaml/v3"
	"helm.sh/helm/v4/pkg/chart/v2/loader"
	"sigs.k8s.io/kustomize/api/types"
	sigyaml "sigs.k8s.io/yaml"
)

// kustomizeHelm is what rootFS keeps of the helmCharts it rendered in
// place of kustomize's helm binary.
type kustomizeHelm struct {
	// virtual are the generated resource files, by absolute path.
	virtual map[string][]byte
	// objs are the rendered objects of each generated file (by the path
	// as the user would name it), their File the template.
	objs map[string][]*manifest.Object
	// docs are the rendered objects of each kustomization file (as
	// shown), for the source index.
	docs  map[string][]*manifest.Object
	probs []*manifest.Problem
	// rewritten are the kustomizations served, by absolute path: a
	// kustomization read twice is rendered once.
	rewritten map[string][]byte
}

// virtualFile is the content of a generated helm file at path.
func (f *rootFS) virtualFile(path string) ([]byte, bool) {
	if f.helm == nil {
		return nil, false
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, false
	}
	data, ok := f.helm.virtual[abs]
	return data, ok
}

// inflateHelm renders the helmCharts of the kustomization file path (data
// its content) with kubeplan's own helm engine and returns the
// kustomization kustomize is given instead: helmCharts and helmGlobals
// removed, and for each chart a generated resource file,
// .kubeplan-helm-<name>.yaml in the kustomization directory, added to
// resources. Those files exist only in this rootFS. Semantics follow
// kustomize's: the chart is chartHome/<name> (chartHome default charts/,
// chartHome/<name>-<version>/<name> when version and repo are set, as
// kustomize pulls it), valuesFile replaces the chart's values.yaml,
// valuesInline is merged with it as valuesMerge says (override, merge,
// replace), then additionalValuesFiles; releaseName defaults to helm
// template's "release-name" (kustomize would generate a random one).
// A chart that is not vendored is one problem at its entry.
func (f *rootFS) inflateHelm(path string, data []byte) ([]byte, error) {
	var k types.Kustomization
	if err := sigyaml.Unmarshal(data, &k); err != nil || len(k.HelmCharts) == 0 {
		return data, nil //nolint:nilerr // kustomize reports a bad kustomization itself
	}
	doc, _, err := manifest.DecodeYAML(data)
	if err != nil || doc == nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return data, nil //nolint:nilerr // as above
	}
	top := doc.Content[0]
	if f.helm == nil {
		f.helm = &kustomizeHelm{virtual: map[string][]byte{}, objs: map[string][]*manifest.Object{}, docs: map[string][]*manifest.Object{},
			rewritten: map[string][]byte{}}
	}
	absK, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if out, ok := f.helm.rewritten[absK]; ok {
		return out, nil
	}
	kdir := filepath.Dir(path)
	shown := f.display(kdir)
	kfile := f.display(path)
	home := types.HelmDefaultHome
	if k.HelmGlobals != nil && k.HelmGlobals.ChartHome != "" {
		home = k.HelmGlobals.ChartHome
	}
	_, entries := manifest.MapEntry(top, "helmCharts")
	var added []string
	for i, hc := range k.HelmCharts {
		at := manifest.Pos{Line: 1, Col: 1}
		if entries != nil && i < len(entries.Content) {
			at = manifest.Pos{Line: entries.Content[i].Line, Col: entries.Content[i].Column}
		}
		objs, probs := f.renderHelmChart(hc, shown, home, kfile, at)
		f.helm.probs = append(f.helm.probs, probs...)
		name := ".kubeplan-helm-" + hc.Name + ".yaml"
		if i > 0 {
			name = fmt.Sprintf(".kubeplan-helm-%s-%d.yaml", hc.Name, i)
		}
		var buf bytes.Buffer
		for _, o := range objs {
			b, err := sigyaml.Marshal(o.Content)
			if err != nil {
				return nil, fmt.Errorf("helm chart %s: %w", hc.Name, err)
			}
			buf.WriteString("---\n")
			buf.Write(b)
		}
		abs, err := filepath.Abs(filepath.Join(kdir, name))
		if err != nil {
			return nil, fmt.Errorf("helm chart %s: %w", hc.Name, err)
		}
		f.helm.virtual[abs] = buf.Bytes()
		f.helm.objs[filepath.Join(shown, name)] = objs
		f.helm.docs[kfile] = append(f.helm.docs[kfile], objs...)
		added = append(added, name)
	}
	out, err := rewriteKustomization(top, added)
	if err != nil {
		return nil, err
	}
	f.helm.rewritten[absK] = out
	return out, nil
}

// renderHelmChart renders one helmCharts entry.
func (f *rootFS) renderHelmChart(hc types.HelmChart, shown, home, kfile string, at manifest.Pos) ([]*manifest.Object, []*manifest.Problem) {
	chartHome := filepath.Join(shown, home)
	dir := filepath.Join(chartHome, hc.Name)
	if hc.Version != "" && hc.Repo != "" {
		dir = filepath.Join(chartHome, hc.Name+"-"+hc.Version, hc.Name)
	}
	if !manifest.FileExists(filepath.Join(dir, "Chart.yaml")) {
		pull := "helm pull <repo>/" + hc.Name
		if hc.Repo != "" {
			pull = "helm pull " + hc.Name + " --repo " + hc.Repo
		}
		if hc.Version != "" {
			pull += " --version " + hc.Version
		}
		return nil, []*manifest.Problem{{File: kfile, Pos: at, Rule: "helm-chart",
			Message: fmt.Sprintf("helm chart %q is not vendored at %s: run %s --untar --untardir %s (kubeplan never downloads)",
				hc.Name, dir, pull, filepath.Dir(dir))}}
	}
	// kustomize's semantics, not helm install's: a helmCharts entry's
	// crds/ are rendered only with includeCRDs: true (kustomize's default
	// is false).
	h := helm.Options{ReleaseName: hc.ReleaseName, Namespace: hc.Namespace, SkipCRDs: !hc.IncludeCRDs,
		KubeVersion: hc.KubeVersion, APIVersions: hc.ApiVersions, SkipHooks: hc.SkipHooks}
	var base map[string]any
	if hc.ValuesFile != "" {
		vf := filepath.Join(shown, hc.ValuesFile)
		data, err := confine.ReadFile(vf, f.root)
		if err != nil {
			return nil, []*manifest.Problem{{File: kfile, Pos: at, Rule: "helm-chart", Message: helm.OneLine(err.Error())}}
		}
		if base, err = loader.LoadValues(bytes.NewReader(data)); err != nil {
			return nil, []*manifest.Problem{{File: vf, Pos: manifest.Pos{Line: 1, Col: 1}, Rule: "invalid-yaml", Message: helm.OneLine(err.Error())}}
		}
		if len(hc.ValuesInline) == 0 {
			h.ValuesFiles = append(h.ValuesFiles, vf)
			base = nil
		}
	}
	if len(hc.ValuesInline) > 0 {
		switch strings.ToLower(hc.ValuesMerge) {
		case "merge":
			h.Values = loader.MergeMaps(hc.ValuesInline, base)
		case "replace":
			h.Values = hc.ValuesInline
		default: // override
			h.Values = loader.MergeMaps(base, hc.ValuesInline)
		}
	}
	for _, vf := range hc.AdditionalValuesFiles {
		h.ValuesFiles = append(h.ValuesFiles, filepath.Join(shown, vf))
	}
	objs, probs, err := helm.Render(context.Background(), dir, f.root, h)
	if err != nil {
		return nil, []*manifest.Problem{{File: kfile, Pos: at, Rule: "helm-chart", Message: helm.OneLine(err.Error())}}
	}
	return objs, probs
}

// rewriteKustomization drops helmCharts and helmGlobals from the
// kustomization's top mapping and adds the generated files to resources.
func rewriteKustomization(top *yaml.Node, added []string) ([]byte, error) {
	var content []*yaml.Node
	var resources *yaml.Node
	for i := 0; i+1 < len(top.Content); i += 2 {
		switch top.Content[i].Value {
		case "helmCharts", "helmGlobals":
			continue
		case "resources":
			resources = top.Content[i+1]
		}
		content = append(content, top.Content[i], top.Content[i+1])
	}
	if resources == nil || resources.Kind != yaml.SequenceNode {
		resources = &yaml.Node{Kind: yaml.SequenceNode}
		content = append(content, &yaml.Node{Kind: yaml.ScalarNode, Value: "resources"}, resources)
	}
	for _, a := range added {
		resources.Content = append(resources.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: a})
	}
	top.Content = content
	out, err := yaml.Marshal(top)
	if err != nil {
		return nil, fmt.Errorf("rewriting a kustomization with helmCharts: %w", err)
	}
	return out, nil
}

// helmOrigin is the rendered object a built one came from when file is a
// generated helm file, matched as findOrigin matches.
func (f *rootFS) helmOrigin(file, kind, name string) (*manifest.Object, bool) {
	if f.helm == nil {
		return nil, false
	}
	objs, ok := f.helm.objs[filepath.Clean(file)]
	if !ok {
		return nil, false
	}
	var best *manifest.Object
	for _, o := range objs {
		if o.Kind == kind && strings.Contains(name, o.Name) && (best == nil || len(o.Name) > len(best.Name)) {
			best = o
		}
	}
	return best, true
}
