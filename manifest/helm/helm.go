package helm

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"helm.sh/helm/v4/pkg/chart/common"
	"helm.sh/helm/v4/pkg/chart/common/util"
	chart "helm.sh/helm/v4/pkg/chart/v2"
	chartutil "helm.sh/helm/v4/pkg/chart/v2/util"

	"github.com/kubeplan/kubeplan/internal/kubeapi"
	"github.com/kubeplan/kubeplan/manifest"
)

// defaultHelmKubeVersion is the Kubernetes version .Capabilities reports
// when Options.KubeVersion is empty: the one kubeplan lints against.
const defaultHelmKubeVersion = kubeapi.KubeVersion

// Render renders the chart at path (a directory holding Chart.yaml or
// a packaged .tgz) as helm template would, offline: no repository is ever
// contacted, and lookup returns nothing unless h.Lookup is set. Objects carry the template they came
// from as File, with positions in the rendered text of that template
// (see helmObjects); what is wrong with the chart or its values comes back
// as Problems. The error is for input kubeplan refuses to read.
// h.Lookup, when set, is what lookup reads (within ctx and the chart's
// time bound); fields the chart generated or derived from a looked-up
// Secret's data are marked in Object.Kept (see chartRender.keptFields).
func Render(ctx context.Context, path, root string, h Options) ([]*manifest.Object, []*manifest.Problem, error) {
	ch, err := loadChart(path, root)
	if err != nil {
		if p := chartLoadProblem(path, err); p != nil {
			return nil, []*manifest.Problem{p}, nil
		}
		return nil, nil, err
	}
	if probs := missingDependencies(path, root, ch); len(probs) > 0 {
		return nil, probs, nil
	}
	vals, probs, err := helmValues(path, ch, root, h)
	if err != nil || len(probs) > 0 {
		return nil, probs, err
	}
	if err := chartutil.ProcessDependencies(ch, vals.merged); err != nil {
		return nil, []*manifest.Problem{{File: filepath.Join(path, "Chart.yaml"), Pos: manifest.Pos{Line: 1, Col: 1}, Rule: "helm-dependency",
			Message: OneLine(err.Error())}}, nil
	}
	caps, err := helmCapabilities(h)
	if err != nil {
		return nil, nil, err
	}
	if kv := ch.Metadata.KubeVersion; kv != "" && !chartutil.IsCompatibleRange(kv, caps.KubeVersion.String()) {
		return nil, []*manifest.Problem{{File: filepath.Join(path, "Chart.yaml"), Pos: chartFieldPos(path, root, "kubeVersion"), Rule: "helm-chart",
			Message: fmt.Sprintf("chart requires kubeVersion %s, which is incompatible with Kubernetes %s (the version rendered for)", kv, caps.KubeVersion.String())}}, nil
	}
	opts := common.ReleaseOptions{Name: orDefault(h.ReleaseName, "release-name"),
		Namespace: orDefault(h.Namespace, "default"), Revision: 1, IsInstall: true}
	top, err := util.ToRenderValuesWithSchemaValidation(ch, vals.merged, opts, caps, true)
	if err != nil {
		return nil, []*manifest.Problem{{File: vals.topFile(), Pos: manifest.Pos{Line: 1, Col: 1}, Rule: "helm-values-schema", Message: OneLine(err.Error())}}, nil
	}
	final, _ := top["Values"].(common.Values)
	if probs := schemaProblems(ch, final.AsMap(), vals); len(probs) > 0 {
		return nil, probs, nil
	}
	timeout := h.Timeout
	if timeout <= 0 {
		timeout = defaultHelmTimeout
	}
	deadline := time.Now().Add(timeout)
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	r := &chartRender{path: path, ch: ch, top: top, h: h, ctx: ctx, deadline: deadline,
		cache: &lookupCache{got: map[[4]string]lookupAnswer{}}, tape: new([]genCall)}
	withhold := 0
	if h.WithholdSecretData {
		withhold = 1
	}
	var crds *chartCRDs
	if !h.SkipCRDs {
		crds = parseCRDs(path, ch) // meanwhile
	}
	notes := make(chan []*manifest.Problem, 1) // what the templates' source says, meanwhile too
	go func() {
		var ps []*manifest.Problem
		if h.Lookup == nil {
			ps = lookupWarnings(path, ch)
		}
		notes <- append(ps, generatedFindings(path, ch)...)
	}()
	rendered, calls, sawSecret, bound, err := r.render(genLive, withhold)
	if bound != nil {
		return nil, []*manifest.Problem{bound}, nil
	}
	var objs []*manifest.Object
	if err == nil {
		if calls > 0 {
			r.start(genVary, withhold) // keptFields' next render, meanwhile
		}
		objs, probs = helmObjects(path, ch, rendered, h, vals, crds)
	}
	if withhold == 0 && sawSecret && (err != nil || hasErrorProblem(probs)) {
		// the messages may quote the data the templates were given
		return nil, r.withheldErrors(err, probs), nil
	}
	if err != nil {
		return nil, []*manifest.Problem{templateProblem(path, err)}, nil
	}
	if calls > 0 || sawSecret {
		if !hasErrorProblem(probs) {
			r.first = &firstRender{out: rendered, objs: objs}
		}
		if p := r.keptFields(objs, calls > 0, sawSecret, withhold); p != nil {
			return nil, []*manifest.Problem{p}, nil
		}
	}
	probs = append(probs, <-notes...)
	return objs, probs, nil
}

// helmCapabilities is .Capabilities for h: its Kubernetes version (default
// defaultHelmKubeVersion) and the API versions that version serves (from
// the embedded API index, the one lint checks against; helm's built-in set
// for a version it does not cover), plus h.APIVersions. A chart that asks
// .Capabilities.APIVersions.Has "apiregistration.k8s.io/v1" then renders
// as it would against a real cluster of that version.
func helmCapabilities(h Options) (*common.Capabilities, error) {
	v := orDefault(h.KubeVersion, defaultHelmKubeVersion)
	if strings.Count(strings.TrimPrefix(v, "v"), ".") == 1 {
		v += ".0"
	}
	kv, err := common.ParseKubeVersion(v)
	if err != nil {
		return nil, fmt.Errorf("helm: kube version %q: %w", h.KubeVersion, err)
	}
	caps := common.DefaultCapabilities.Copy()
	caps.KubeVersion = *kv
	if served := servedAPIVersions(v); len(served) > 0 {
		caps.APIVersions = served
	}
	if len(h.APIVersions) > 0 {
		// a fresh slice: the default set is shared
		caps.APIVersions = append(slices.Clone(caps.APIVersions), h.APIVersions...)
	}
	return caps, nil
}

// missingDependencies is one problem per dependency Chart.yaml declares
// that charts/ does not hold: kubeplan never downloads one.
func missingDependencies(path, root string, ch *chart.Chart) []*manifest.Problem {
	have := map[string]bool{}
	for _, d := range ch.Dependencies() {
		have[d.Name()] = true
	}
	var probs []*manifest.Problem
	for _, d := range ch.Metadata.Dependencies {
		if have[d.Name] {
			continue
		}
		file, pos := dependencyAt(path, root, d.Name)
		probs = append(probs, &manifest.Problem{File: file, Pos: pos, Rule: "helm-dependency",
			Message: fmt.Sprintf("dependency %q is missing from charts/: run helm dependency build (kubeplan never downloads)", d.Name)})
	}
	return probs
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// OneLine joins the lines of a message with single spaces.
func OneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// servedAPIVersions is what the Kubernetes version serves, as
// .Capabilities.APIVersions lists it; nil when the index does not cover it.
func servedAPIVersions(kubeVersion string) common.VersionSet {
	ix, err := kubeapi.Index()
	if err != nil {
		return nil
	}
	return common.VersionSet(ix.APIVersions(kubeVersion))
}
