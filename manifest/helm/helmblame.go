package helm

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/kubeplan/kubeplan/manifest"
	yaml "go.yaml.in/yaml/v3"
)

// valuesLine is a template line that sets a field to one values key and
// nothing else: `  tag: {{ .Values.image.tag }}` (quotes and the
// {{- -}} trims allowed, `| quote` too).
var valuesLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(?:-\s+)?([\w.\-/]+):\s*["']?\{\{-?\s*\.Values\.([\w.]+)(?:\s*\|\s*quote)?\s*-?\}\}["']?\s*$`)
})

// blameValues is the best-effort rule that points a rendered field at the
// values file that set it. When a line of the object's template sets a
// field named K to exactly one values key (`K: {{ .Values.a.b }}`), every
// scalar field named K of the rendered object whose value equals that
// key's value in the last values file setting it (the chart's values.yaml,
// or the -f file that won) is blamed on that file: FileOf, Pos and Span
// then give the values file and the line of the key there. Values set by
// --set or computed by functions are not blamed; the field then points at
// the rendered output. A subchart's field is looked up under its name in
// the parent's values files, then in its own values.yaml.
func blameValues(o *manifest.Object, src templateSource, vals *helmVals) {
	if vals == nil || len(src.data) == 0 {
		return
	}
	byKey := map[string][][]string{}
	for _, line := range strings.Split(string(src.data), "\n") {
		if m := valuesLine().FindStringSubmatch(line); m != nil {
			vpath := append(append([]string(nil), src.prefix...), strings.Split(m[2], ".")...)
			byKey[m[1]] = append(byKey[m[1]], vpath)
		}
	}
	if len(byKey) == 0 {
		return
	}
	root, _ := o.Tree()
	walkScalars(root, nil, func(path []string, key string, val *yaml.Node) {
		for _, vpath := range byKey[key] {
			file, k, v := vals.find(vpath)
			if file == "" && src.own != nil {
				file, k, v = findIn([]valuesFile{*src.own}, vpath[len(src.prefix):])
			}
			if file == "" || v == nil || v.Kind != yaml.ScalarNode || v.Value != val.Value {
				continue
			}
			rel, err := filepath.Rel(filepath.Dir(o.File), file)
			if err != nil {
				continue
			}
			if o.Blame == nil {
				o.Blame = map[string]*manifest.Blame{}
			}
			o.Blame[manifest.BlameKey(path)] = &manifest.Blame{Rel: rel, Key: k, Val: v}
			return
		}
	})
}

// walkScalars calls f for every scalar value of a mapping entry under n,
// with its field path and key.
func walkScalars(n *yaml.Node, path []string, f func(path []string, key string, val *yaml.Node)) {
	n = manifest.Deref(n)
	if n == nil {
		return
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], manifest.Deref(n.Content[i+1])
			p := append(append([]string(nil), path...), k.Value)
			if v != nil && v.Kind == yaml.ScalarNode {
				f(p, k.Value, v)
				continue
			}
			walkScalars(v, p, f)
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			walkScalars(c, append(append([]string(nil), path...), strconv.Itoa(i)), f)
		}
	}
}
