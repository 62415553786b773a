package healthexpr

import (
	"fmt"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kubeplan/kubeplan/internal/yamlnode"
)

// Parse reads a list of health rules (kubeplan.yaml's health: node, where
// names it in messages: "health") from file; data is the file's content,
// for the column of a block scalar's text (nil: two columns past the
// keys). An unknown key, a wrong type, or a missing apiVersion, kind or
// current is an error at its file:line:col. A null node is no rules.
func Parse(file string, data []byte, n *yaml.Node, where string) ([]Rule, error) {
	d := decoder{Decoder: yamlnode.Decoder{File: file, Doc: "docs/health.md"}, data: data}
	n = yamlnode.Deref(n)
	if yamlnode.IsNull(n) {
		return nil, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, d.Errorf(n, "%s: want a list of rules (apiVersion, kind, current, inProgress, failed), got %s", where, yamlnode.KindName(n))
	}
	var out []Rule
	for i, e := range n.Content {
		r, err := d.rule(yamlnode.Deref(e), fmt.Sprintf("%s[%d]", where, i))
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

type decoder struct {
	yamlnode.Decoder
	data []byte
}

// rule reads one rule.
func (d decoder) rule(n *yaml.Node, where string) (Rule, error) {
	if n.Kind != yaml.MappingNode {
		return Rule{}, d.Errorf(n, "%s: want a rule (a mapping with apiVersion, kind, current...), got %s", where, yamlnode.KindName(n))
	}
	r := Rule{File: d.File, At: Pos{n.Line, n.Column}, Pos: map[string]Pos{}, Folded: map[string]bool{}}
	str := func(key string, dst *string) func(*yaml.Node) error {
		return func(v *yaml.Node) error {
			s, err := d.Str(v, where+"."+key)
			*dst = s
			v = yamlnode.Deref(v)
			r.Pos[key] = d.textPos(v, n.Column)
			r.Folded[key] = v.Style == yaml.FoldedStyle
			return err
		}
	}
	err := d.Fields(n, where, map[string]func(*yaml.Node) error{
		"apiVersion": str("apiVersion", &r.APIVersion),
		"kind":       str("kind", &r.Kind),
		"current":    str("current", &r.Current),
		"inProgress": str("inProgress", &r.InProgress),
		"failed":     str("failed", &r.Failed),
	})
	if err != nil {
		return Rule{}, err
	}
	switch {
	case r.APIVersion == "":
		return Rule{}, d.Errorf(n, "%s: apiVersion is missing: name the objects' group and version, such as cert-manager.io/v1", where)
	case r.Kind == "":
		return Rule{}, d.Errorf(n, "%s: kind is missing: name the objects' kind, such as Certificate", where)
	case r.Current == "":
		return Rule{}, d.Errorf(n, "%s: current is missing: write CEL that is true when the object is healthy (Flux requires it too)", where)
	}
	return r, nil
}

// textPos is where the text of scalar n starts (yamlnode.TextPos).
func (d decoder) textPos(n *yaml.Node, keyCol int) Pos {
	line, col := yamlnode.TextPos(n, keyCol, d.data)
	return Pos{line, col}
}
