package manifest

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

const mergeTag = "!!merge"

// decoder turns a yaml.Node tree into plain values. It reports duplicate
// keys and stops alias expansion that would blow up (billion laughs).
type decoder struct {
	file      string
	lines     *lineMap
	budget    int // nodes that may still be produced
	problems  []*Problem
	exhausted bool
	// alias is the outermost alias being expanded: where an alias bomb is
	// reported, rather than at whichever node ran out of budget.
	alias *yaml.Node
}

// maxExpansion bounds how many nodes alias expansion may add on top of the
// document's own size.
const maxExpansion = 100_000

func NewDecoder(file string, lines *lineMap, ownNodes int) *decoder {
	return &decoder{file: file, lines: lines, budget: ownNodes + maxExpansion}
}

func (d *decoder) problem(n *yaml.Node, rule, format string, args ...any) {
	d.problems = append(d.problems, &Problem{
		File: d.file, Pos: d.lines.pos(n.Line, n.Column),
		Rule: rule, Message: fmt.Sprintf(format, args...),
	})
}

func (d *decoder) Value(n *yaml.Node, depth int) any {
	if d.exhausted {
		return nil
	}
	d.budget--
	if d.budget < 0 {
		d.exhausted = true
		if d.alias != nil {
			n = d.alias
		}
		d.problem(n, "invalid-yaml", "YAML aliases expand to too many nodes (more than %d); this looks like an alias bomb, refusing to expand it", maxExpansion)
		return nil
	}
	if depth > 200 {
		d.exhausted = true
		d.problem(n, "invalid-yaml", "YAML nested more than 200 levels deep")
		return nil
	}
	switch n.Kind {
	case yaml.AliasNode:
		if n.Alias == nil {
			return nil
		}
		if d.alias == nil {
			d.alias = n
			defer func() { d.alias = nil }()
		}
		return d.Value(n.Alias, depth+1)
	case yaml.MappingNode:
		return d.mapping(n, depth)
	case yaml.SequenceNode:
		out := make([]any, len(n.Content))
		for i, c := range n.Content {
			out[i] = d.Value(c, depth+1)
		}
		return out
	case yaml.ScalarNode:
		return scalar(n)
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil
		}
		return d.Value(n.Content[0], depth)
	}
	return nil
}

func (d *decoder) mapping(n *yaml.Node, depth int) map[string]any {
	out := make(map[string]any, len(n.Content)/2)
	var merges []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.ShortTag() == mergeTag {
			merges = append(merges, v)
			continue
		}
		key := keyString(k)
		if _, dup := out[key]; dup {
			first := firstKey(n, key)
			d.problem(k, "duplicate-key", "duplicate key %q (first defined at line %d); YAML keeps only one of them, remove the other", key, d.lines.pos(first.Line, first.Column).Line)
			continue
		}
		out[key] = d.Value(v, depth+1)
	}
	// Merge keys ("<<: *base") fill in what the mapping does not set itself.
	for _, m := range merges {
		srcs := []*yaml.Node{m}
		if dm := Deref(m); dm != nil && dm.Kind == yaml.SequenceNode {
			srcs = dm.Content
		}
		for _, s := range srcs {
			sv, ok := d.Value(s, depth+1).(map[string]any)
			if !ok {
				if !d.exhausted {
					d.problem(s, "invalid-yaml", "merge key \"<<\" needs a mapping or a list of mappings")
				}
				continue
			}
			for k, v := range sv {
				if _, set := out[k]; !set {
					out[k] = v
				}
			}
		}
	}
	return out
}

func firstKey(n *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if keyString(n.Content[i]) == key {
			return n.Content[i]
		}
	}
	return n
}

func keyString(k *yaml.Node) string {
	if k.Kind == yaml.ScalarNode {
		return k.Value
	}
	if k = Deref(k); k != nil && k.Kind == yaml.ScalarNode {
		return k.Value
	}
	return fmt.Sprintf("<%s key>", kindName(k))
}

// scalar resolves a scalar the way sigs.k8s.io/yaml's YAML 1.2 core schema
// would, so Content matches what kubectl sends.
func scalar(n *yaml.Node) any {
	switch n.ShortTag() {
	case "!!null":
		return nil
	case "!!bool":
		switch n.Value {
		case "true", "True", "TRUE":
			return true
		case "false", "False", "FALSE":
			return false
		}
		var b bool
		if n.Decode(&b) == nil {
			return b
		}
	case "!!int":
		// A leading zero is octal to YAML 1.1 and so to kubectl, Helm and
		// yaml.v3 itself (defaultMode: 0644 is 420); only YAML 1.2's core
		// schema reads 644. Such values go to yaml.v3 below.
		if i, err := strconv.ParseInt(n.Value, 10, 64); err == nil && !leadingZero(n.Value) {
			return i
		}
		var i int64
		if n.Decode(&i) == nil {
			return i
		}
		var f float64
		if n.Decode(&f) == nil {
			return f
		}
	case "!!float":
		if f, err := strconv.ParseFloat(n.Value, 64); err == nil {
			return f
		}
		switch strings.ToLower(n.Value) {
		case ".inf", "+.inf":
			return math.Inf(1)
		case "-.inf":
			return math.Inf(-1)
		case ".nan":
			return math.NaN()
		}
		var f float64
		if n.Decode(&f) == nil {
			return f
		}
	}
	return n.Value
}

// leadingZero reports an integer written with a leading zero ("0644",
// "-017"), which YAML 1.1 reads as octal.
func leadingZero(s string) bool {
	s = strings.TrimLeft(s, "+-")
	return len(s) > 1 && s[0] == '0'
}

func CountNodes(n *yaml.Node) int {
	if n == nil {
		return 0
	}
	c := 1
	for _, ch := range n.Content {
		c += CountNodes(ch)
	}
	return c
}

func kindName(n *yaml.Node) string {
	if n == nil {
		return "empty"
	}
	switch n.Kind {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "list"
	case yaml.ScalarNode:
		return "scalar"
	case yaml.AliasNode:
		return "alias"
	}
	return "document"
}
