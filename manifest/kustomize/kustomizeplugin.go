package kustomize

import (
	"bytes"
	"errors"
	"io"
	"strings"

	"github.com/kubeplan/kubeplan/manifest"
	yaml "go.yaml.in/yaml/v3"
)

// pluginFileFields are the fields of kustomize's builtin plugin configs
// that name a file kustomize loads (and would fetch, were it a URL), by
// kind; "replacements.path" is the path of each replacements item.
var pluginFileFields = map[string][]string{
	"ConfigMapGenerator":             {"files", "envs", "env"},
	"SecretGenerator":                {"files", "envs", "env"},
	"PatchTransformer":               {"path"},
	"PatchJson6902Transformer":       {"path"},
	"PatchStrategicMergeTransformer": {"paths"},
	"ReplacementTransformer":         {"replacements.path"},
	"ValueAddTransformer":            {"targetFilePath"},
	"HelmChartInflationGenerator":    {"valuesFile", "additionalValuesFiles", "repo", "chartHome"},
}

// findRemotePlugin returns the first remote file a builtin plugin config
// in data (a file in the resolved directory dir, or an inline entry of a
// kustomization) names, nil when there is none. Every document of data is
// looked at, so a resource file holding plugin configs (a kustomization
// that generators: names) is covered as well as a config file.
func findRemotePlugin(data []byte, dir string) *remoteRef {
	if !bytes.Contains(data, []byte("Generator")) && !bytes.Contains(data, []byte("Transformer")) ||
		!bytes.Contains(data, []byte("://")) && !bytes.Contains(data, []byte("github.com")) && !bytes.Contains(data, []byte("@")) {
		return nil // the common case: no plugin config, or nothing that could be remote
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var doc yaml.Node
		err := decodeSafely(dec, &doc)
		if errors.Is(err, io.EOF) || err != nil {
			return nil // kustomize reports a file that does not parse
		}
		if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
			continue
		}
		top := doc.Content[0]
		_, kind := manifest.MapEntry(top, "kind")
		if kind == nil || pluginFileFields[kind.Value] == nil {
			continue
		}
		for _, f := range pluginFileFields[kind.Value] {
			for _, n := range pluginEntries(top, f) {
				v := n.Value
				if _, after, ok := strings.Cut(v, "="); ok && strings.HasSuffix(kind.Value, "Generator") {
					v = after // "key=path"
				}
				if isRemote(n.Value, dir) || isRemote(v, dir) {
					return &remoteRef{Pos: manifest.Pos{Line: n.Line, Col: n.Column}, url: v,
						what: kind.Value + " " + strings.ReplaceAll(f, ".", "[].")}
				}
			}
		}
	}
}

// pluginEntries are the scalars under field of a plugin config: "a.b" is
// b of every item of the list a.
func pluginEntries(top *yaml.Node, field string) []*yaml.Node {
	list, sub, ok := strings.Cut(field, ".")
	if !ok {
		return mappingValues(top, field)
	}
	_, items := manifest.MapEntry(top, list)
	var out []*yaml.Node
	for _, item := range seqItems(items) {
		out = append(out, mappingValues(item, sub)...)
	}
	return out
}

// decodeSafely decodes one document, a parser panic turned into an error.
func decodeSafely(dec *yaml.Decoder, n *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = manifest.ParserPanic{Value: r}
		}
	}()
	return dec.Decode(n)
}

// inlinePlugin reports whether a generators, transformers or validators
// entry is an inline plugin config rather than a path.
func inlinePlugin(field, value string) bool {
	switch field {
	case "generators", "transformers", "validators":
		return strings.Contains(value, "\n") || strings.Contains(value, "kind:")
	}
	return false
}

// inlineRemote checks an inline plugin config entry n of a kustomization
// (data, in dir); the position is the entry's, or, for a literal block
// scalar, the place in data that names the file.
func inlineRemote(n *yaml.Node, dir string, data []byte) *remoteRef {
	r := findRemotePlugin([]byte(n.Value), dir)
	if r == nil {
		return nil
	}
	at := manifest.Pos{Line: n.Line, Col: n.Column}
	lines := bytes.Split(data, []byte("\n"))
	if n.Style&yaml.LiteralStyle != 0 && n.Line+r.Line-1 < len(lines) {
		l := lines[n.Line+r.Line-1] // the value's line r.Line, 0-based
		at = manifest.Pos{Line: n.Line + r.Line, Col: len(l) - len(bytes.TrimLeft(l, " ")) + r.Col}
	}
	r.Pos = at
	return r
}
