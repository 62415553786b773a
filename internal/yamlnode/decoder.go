package yamlnode

import (
	"fmt"

	yaml "go.yaml.in/yaml/v3"
)

// Decoder walks the YAML nodes of one file. File names it in errors; Doc
// is the page an unknown key's error points to ("docs/config.md").
type Decoder struct {
	File string
	Doc  string
}

// Errorf makes an error at n: "FILE:LINE:COL: message".
func (d Decoder) Errorf(n *yaml.Node, format string, args ...any) error {
	return fmt.Errorf("%s:%d:%d: %s", d.File, n.Line, n.Column, fmt.Sprintf(format, args...))
}

// Fields calls set[key] with the value of each key of the mapping n; a key
// set has no entry for is an error, and so is a key given twice. A null n
// is an empty mapping. where names the mapping in messages.
func (d Decoder) Fields(n *yaml.Node, where string, set map[string]func(v *yaml.Node) error) error {
	n = Deref(n)
	if IsNull(n) {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		return d.Errorf(n, "%s: want a mapping, got %s", where, KindName(n))
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		f, ok := set[k.Value]
		if !ok || k.Kind != yaml.ScalarNode {
			return d.Errorf(k, "unknown key %q in %s (see %s)", k.Value, where, d.Doc)
		}
		if seen[k.Value] {
			return d.Errorf(k, "key %q is given twice in %s", k.Value, where)
		}
		seen[k.Value] = true
		if err := f(v); err != nil {
			return err
		}
	}
	return nil
}

// Str reads a scalar as written ("1.30" stays "1.30"); null is "".
func (d Decoder) Str(n *yaml.Node, where string) (string, error) {
	n = Deref(n)
	if IsNull(n) {
		return "", nil
	}
	if n.Kind != yaml.ScalarNode {
		return "", d.Errorf(n, "%s: want a string, got %s", where, KindName(n))
	}
	return n.Value, nil
}

// Bool reads true or false; null is false.
func (d Decoder) Bool(n *yaml.Node, where string) (bool, error) {
	n = Deref(n)
	if IsNull(n) {
		return false, nil
	}
	var b bool
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" || n.Decode(&b) != nil {
		return false, d.Errorf(n, "%s: want true or false, got %s", where, KindName(n))
	}
	return b, nil
}

// StrList reads a list of strings and the node of each; null is empty.
func (d Decoder) StrList(n *yaml.Node, where string) ([]string, []*yaml.Node, error) {
	n = Deref(n)
	if IsNull(n) {
		return nil, nil, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, nil, d.Errorf(n, "%s: want a list of strings, got %s", where, KindName(n))
	}
	var out []string
	var nodes []*yaml.Node
	for i, e := range n.Content {
		s, err := d.Str(e, fmt.Sprintf("%s[%d]", where, i))
		if err != nil {
			return nil, nil, err
		}
		out = append(out, s)
		nodes = append(nodes, e)
	}
	return out, nodes, nil
}

// Deref follows an alias (*anchor) to the node it names.
func Deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

// IsNull is true for a missing value, "~" and "null".
func IsNull(n *yaml.Node) bool {
	return n == nil || n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// KindName names a node's type for messages.
func KindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	}
	return fmt.Sprintf("%q", n.Value)
}
