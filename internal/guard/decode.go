package guard

import (
	"fmt"

	yaml "go.yaml.in/yaml/v3"
)

// decoder walks the YAML nodes of one file; every error it makes names the
// file, line and column of the node at fault, as internal/config's do.
// data is the file's text when the decoder has it (rule files), for
// positions inside block scalars.
type decoder struct {
	file string
	data []byte
}

// errorf makes an error at n.
func (d decoder) errorf(n *yaml.Node, format string, args ...any) error {
	return fmt.Errorf("%s:%d:%d: %s", d.file, n.Line, n.Column, fmt.Sprintf(format, args...))
}

// fields calls set[key] with the value of each key of the mapping n; a key
// set has no entry for is an error, and so is a key given twice. A null n
// is an empty mapping. where names the mapping in messages.
func (d decoder) fields(n *yaml.Node, where string, set map[string]func(v *yaml.Node) error) error {
	n = deref(n)
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		return d.errorf(n, "%s: want a mapping, got %s", where, kindName(n))
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		f, ok := set[k.Value]
		if !ok || k.Kind != yaml.ScalarNode {
			return d.errorf(k, "unknown key %q in %s (see docs/guards.md)", k.Value, where)
		}
		if seen[k.Value] {
			return d.errorf(k, "key %q is given twice in %s", k.Value, where)
		}
		seen[k.Value] = true
		if err := f(v); err != nil {
			return err
		}
	}
	return nil
}

// str reads a scalar as written; null is "".
func (d decoder) str(n *yaml.Node, where string) (string, error) {
	n = deref(n)
	if isNull(n) {
		return "", nil
	}
	if n.Kind != yaml.ScalarNode {
		return "", d.errorf(n, "%s: want a string, got %s", where, kindName(n))
	}
	return n.Value, nil
}

// boolean reads true or false; null is false.
func (d decoder) boolean(n *yaml.Node, where string) (bool, error) {
	n = deref(n)
	if isNull(n) {
		return false, nil
	}
	var b bool
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" || n.Decode(&b) != nil {
		return false, d.errorf(n, "%s: want true or false, got %s", where, kindName(n))
	}
	return b, nil
}

// strList reads a list of strings; null is empty.
func (d decoder) strList(n *yaml.Node, where string) ([]string, error) {
	n = deref(n)
	if isNull(n) {
		return nil, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, d.errorf(n, "%s: want a list of strings, got %s", where, kindName(n))
	}
	var out []string
	for i, e := range n.Content {
		s, err := d.str(e, fmt.Sprintf("%s[%d]", where, i))
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// deref follows an alias (*anchor) to the node it names.
func deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

// isNull is true for a missing value, "~" and "null".
func isNull(n *yaml.Node) bool {
	return n == nil || n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// kindName names a node's type for messages.
func kindName(n *yaml.Node) string {
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

// at is where n is.
func at(n *yaml.Node) Pos { return Pos{n.Line, n.Column} }
