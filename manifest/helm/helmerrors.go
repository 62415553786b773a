package helm

import (
	"bytes"
	"errors"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/kubeplan/kubeplan/internal/confine"
	"github.com/kubeplan/kubeplan/manifest"
	yaml "go.yaml.in/yaml/v3"
	chart "helm.sh/helm/v4/pkg/chart/v2"
)

// tplLocation finds the first "chart/templates/x.yaml:12:20" in a helm
// error message (the column is absent for parse errors).
var tplLocation = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`([^\s():"<>]+):(\d+)(?::(\d+))?`) })

// templateProblem turns a helm rendering error into one problem (rule
// helm-template) at the template file:line:col helm's message names,
// with the message on one line. helm gives the error in a few forms:
// "parse error at (shop/templates/x.yaml:12): ...", "execution error at
// (shop/templates/x.yaml:12:20): ..." (required, fail) or a trace whose
// first line is the location ("template: shop/templates/x.yaml:12:20:
// executing ..." when helm could not reformat it). helm's column counts
// bytes from 0, as text/template does; the problem's counts from 1.
func templateProblem(path string, err error) *manifest.Problem {
	msg := err.Error()
	p := &manifest.Problem{File: path, Pos: manifest.Pos{Line: 1, Col: 1}, Rule: "helm-template"}
	m := tplLocation().FindStringSubmatchIndex(msg)
	if m == nil {
		p.Message = OneLine(msg)
		return p
	}
	name := msg[m[2]:m[3]]
	p.File = chartFile(path, name)
	p.Line, _ = strconv.Atoi(msg[m[4]:m[5]])
	p.Col = 1
	if m[6] >= 0 {
		c, _ := strconv.Atoi(msg[m[6]:m[7]])
		p.Col = c + 1 // text/template counts columns from 0
	}
	rest := strings.TrimLeft(msg[m[1]:], "): \n")
	if strings.HasPrefix(msg, "parse error") {
		rest = "parse error: " + rest
	}
	p.Message = OneLine(rest)
	return p
}

// yamlLine finds "line 3" in a YAML error.
var yamlLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`line (\d+)`) })

// chartLoadProblem is the problem at Chart.yaml for a chart helm cannot
// load, nil when err is not one (a file kubeplan refused to read).
func chartLoadProblem(path string, err error) *manifest.Problem {
	var le *chartLoadError
	if !errors.As(err, &le) {
		return nil
	}
	p := &manifest.Problem{File: filepath.Join(path, "Chart.yaml"), Pos: manifest.Pos{Line: 1, Col: 1}, Rule: "helm-chart",
		Message: "chart does not load: " + OneLine(le.err.Error())}
	if IsChartArchive(path) {
		p.File = path
	}
	if m := yamlLine().FindStringSubmatch(le.err.Error()); m != nil && strings.Contains(le.err.Error(), "Chart.yaml") {
		p.Line, _ = strconv.Atoi(m[1])
	}
	return p
}

// dependencyAt is the file and position that declare the dependency name:
// Chart.yaml's dependencies, or requirements.yaml's for a chart of
// apiVersion v1; Chart.yaml at 1:1 when neither can be read.
func dependencyAt(path, root, name string) (string, manifest.Pos) {
	chartFile := filepath.Join(path, "Chart.yaml")
	if IsChartArchive(path) {
		return chartFile, manifest.Pos{Line: 1, Col: 1}
	}
	for _, f := range []string{"Chart.yaml", "requirements.yaml"} {
		data, err := confine.ReadFile(filepath.Join(path, f), root)
		if err != nil {
			continue
		}
		top := topMapping(data)
		if top == nil {
			continue
		}
		_, deps := manifest.MapEntry(top, "dependencies")
		if deps == nil || deps.Kind != yaml.SequenceNode {
			continue
		}
		for _, d := range deps.Content {
			if d.Kind != yaml.MappingNode {
				continue
			}
			if _, n := manifest.MapEntry(d, "name"); n != nil && n.Value == name {
				return filepath.Join(path, f), manifest.Pos{Line: d.Line, Col: d.Column}
			}
		}
		return filepath.Join(path, f), manifest.Pos{Line: deps.Line, Col: deps.Column}
	}
	return chartFile, manifest.Pos{Line: 1, Col: 1}
}

// chartFieldPos is where Chart.yaml sets a top-level field, 1:1 when
// it cannot be found.
func chartFieldPos(path, root, field string) manifest.Pos {
	if IsChartArchive(path) {
		return manifest.Pos{Line: 1, Col: 1}
	}
	data, err := confine.ReadFile(filepath.Join(path, "Chart.yaml"), root)
	if err != nil {
		return manifest.Pos{Line: 1, Col: 1}
	}
	if top := topMapping(data); top != nil {
		if _, v := manifest.MapEntry(top, field); v != nil {
			return manifest.Pos{Line: v.Line, Col: v.Column}
		}
	}
	return manifest.Pos{Line: 1, Col: 1}
}

// lookupCall finds a call of helm's lookup function in template source.
var lookupCall = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:^|[\s({|])(lookup)\s+["$.(]`) })

// lookupWarnings is a warning (rule helm-lookup) at every lookup call in
// the templates of ch and its subcharts: kubeplan renders offline, where
// lookup returns an empty map, as helm template does.
func lookupWarnings(path string, ch *chart.Chart) []*manifest.Problem {
	var probs []*manifest.Problem
	for _, t := range ch.Templates {
		if !bytes.Contains(t.Data, []byte("lookup")) {
			continue // the regular expression is the cost: most templates never call it
		}
		file := chartFile(path, ch.ChartFullPath()+"/"+t.Name)
		for i, line := range strings.Split(string(t.Data), "\n") {
			if !strings.Contains(line, "lookup") {
				continue
			}
			for _, m := range lookupCall().FindAllStringSubmatchIndex(line, -1) {
				probs = append(probs, &manifest.Problem{File: file, Pos: manifest.Pos{Line: i + 1, Col: m[2] + 1}, Rule: "helm-lookup", Warning: true,
					Message: "lookup reads the cluster; kubeplan renders offline, where it returns an empty map (as helm template does)"})
			}
		}
	}
	for _, d := range ch.Dependencies() {
		probs = append(probs, lookupWarnings(path, d)...)
	}
	return probs
}
