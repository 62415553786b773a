package manifest

import (
	"strconv"

	yaml "go.yaml.in/yaml/v3"
)

// ScalarSource tells how the scalar at path is written where it was set:
// its text and whether it is plain (no quotes, no tag, not a block
// scalar), which is what a YAML 1.1 reader resolves to a boolean or a
// number. ok is false when path is not a scalar of the source. It builds
// the position tree of an object the fast decoder read, so call it only for
// the few values that need it.
func (o *Object) ScalarSource(path ...string) (text string, plain, ok bool) {
	var n *yaml.Node
	if b, rest := o.blameRest(path); b != nil {
		n = walkNode(b.Val, rest)
	} else if _, val, full := o.lookup(path); full {
		n = val
	}
	if n == nil || n.Kind != yaml.ScalarNode {
		return "", false, false
	}
	quoted := yaml.SingleQuotedStyle | yaml.DoubleQuotedStyle | yaml.LiteralStyle | yaml.FoldedStyle | yaml.TaggedStyle
	return n.Value, n.Style&quoted == 0, true
}

// blameRest is the blame of the closest blamed ancestor of path (or path
// itself) and the rest of path below it.
func (o *Object) blameRest(path []string) (*Blame, []string) {
	for i := len(path); i > 0 && o.Blame != nil; i-- {
		if b := o.Blame[BlameKey(path[:i])]; b != nil {
			return b, path[i:]
		}
	}
	return nil, nil
}

// walkNode follows path (map keys, list indexes) down from n.
func walkNode(n *yaml.Node, path []string) *yaml.Node {
	for _, p := range path {
		n = Deref(n)
		if n == nil {
			return nil
		}
		switch n.Kind {
		case yaml.MappingNode:
			_, n = MapEntry(n, p)
		case yaml.SequenceNode:
			i, err := strconv.Atoi(p)
			if err != nil || i < 0 || i >= len(n.Content) {
				return nil
			}
			n = n.Content[i]
		default:
			return nil
		}
	}
	return Deref(n)
}
