package helm

import (
	"bytes"
	"fmt"
	"net/url"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/kubeplan/kubeplan/manifest"
	"github.com/santhosh-tekuri/jsonschema/v6"
	chart "helm.sh/helm/v4/pkg/chart/v2"
)

// chartSchemaBase is the URL a chart's values.schema.json is known by to
// the schema compiler, followed by the chart's full path. It names no
// real file: every $ref is answered from the chart's own files by
// chartLoader, never from the disk or the network.
const chartSchemaBase = "file:///kubeplan-chart/"

// chartLoader answers the $refs of a chart's values.schema.json from the
// files of that chart, loaded already through the confined reader: a
// relative $ref to a JSON file inside the chart ("defs.json",
// "schemas/port.json"). Anything else (file:///etc/passwd, http://...,
// "../../outside.json") is refused without looking: the answer is the same
// whether or not such a file exists, and nothing is read or fetched.
type chartLoader struct {
	ch   *chart.Chart
	base string
	// refused is the first URL refused, for the problem.
	refused string
}

// Load implements jsonschema.URLLoader.
func (l *chartLoader) Load(u string) (any, error) {
	name, ok := strings.CutPrefix(u, l.base)
	if ok {
		name = path.Clean(name)
		for _, f := range l.ch.Raw {
			if path.Clean(f.Name) == name && !strings.HasPrefix(name, "../") {
				return jsonschema.UnmarshalJSON(bytes.NewReader(f.Data))
			}
		}
	}
	if l.refused == "" {
		l.refused = u
	}
	return nil, fmt.Errorf("%w: only a relative $ref to a file inside the chart is read", manifest.ErrRefused)
}

// refPattern finds "$ref": "..." in a schema, for the position of a
// refused one.
var refPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"\$ref"\s*:\s*"([^"\\]*)"`) })

// refusedRef is the problem of a $ref the chart's schema may not follow,
// at that $ref in values.schema.json when it can be found.
func refusedRef(ch *chart.Chart, vals *helmVals, prefix []string, refused string) *manifest.Problem {
	file := schemaFile(vals, prefix)
	p := &manifest.Problem{File: file, Pos: manifest.Pos{Line: 1, Col: 1}, Rule: "helm-values-schema"}
	shown := refused
	base, _ := url.Parse(chartSchemaBase + ch.ChartFullPath() + "/values.schema.json")
	for _, m := range refPattern().FindAllSubmatchIndex(ch.Schema, -1) {
		ref := string(ch.Schema[m[2]:m[3]])
		r, err := url.Parse(ref)
		if err != nil || base == nil {
			continue
		}
		abs := base.ResolveReference(r)
		abs.Fragment = ""
		if abs.String() == refused {
			p.Pos = manifest.OffsetPos(ch.Schema, m[0])
			shown = ref
			break
		}
	}
	p.Message = fmt.Sprintf("$ref %q is refused: a chart's schema may refer only to files inside the chart by a relative path (file://, http(s):// and paths leading out of the chart are never read)", shown)
	return p
}

// schemaFile is where the schema of the chart at prefix (its subchart
// names) is shown: values.schema.json beside the chart's values.yaml.
func schemaFile(vals *helmVals, prefix []string) string {
	dir := filepath.Dir(vals.topFile())
	for _, name := range prefix {
		dir = filepath.Join(dir, "charts", name)
	}
	return filepath.Join(dir, "values.schema.json")
}
