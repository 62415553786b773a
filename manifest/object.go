package manifest

import (
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// Object is one Kubernetes object read from the input, with the source
// position of every field.
type Object struct {
	// File is the path the object was read from, as the user named it
	// ("<stdin>" for standard input). For objects built by kustomize it is
	// the file the object came from when that is known, else the
	// kustomization file; fields an overlay set (a patch, an images
	// entry...) are in another file, see FileOf.
	File string
	// Doc is the 0-based index of the YAML document inside File.
	Doc int
	// Kustomization is the kustomization directory that produced the
	// object, empty for plain files.
	Kustomization string
	// Chart is the Helm chart (directory or .tgz) that rendered the object,
	// empty for objects not rendered from a chart by kubeplan itself.
	Chart string
	// Encrypted is true for an object read from a SOPS-encrypted file: in
	// git its values are encrypted (they are decrypted in memory only when
	// Options.Decrypt is set). With decryption, an object a kustomization
	// derived from decrypted values (a replacement, a generator over the
	// file, a patch) is Encrypted too.
	Encrypted bool

	APIVersion string
	Kind       string
	Name       string
	Namespace  string

	// Content is the object as plain JSON-compatible values
	// (map[string]any, []any, string, int64, float64, bool, nil): what
	// would be sent to the API server.
	Content map[string]any

	// Kept are the fields of a chart's object whose rendered value is not
	// applied as is (values the chart generated at render time, or derived
	// from a Secret it looked up): when the object exists, plan and apply
	// keep the live value of a KeptGenerated field, and plan shows a
	// KeptLookedUp field as kept, never its value.
	Kept []KeptField

	// Root is the mapping node the positions are looked up in; lines
	// turns its positions into file positions.
	Root  *yaml.Node
	Lines *lineMap
	// Lazy, when root is nil, is where the tree is parsed from the first
	// time a position is asked for (objects the fast decoder read).
	Lazy *lazySrc
	// Blame holds, by field path, the fields an overlay of a kustomization
	// set (see FileOf).
	Blame map[string]*Blame
	// Moved maps list items a patch moved to their path in the document.
	Moved map[string][]string
}

// Group returns the API group ("" for the core group).
func (o *Object) Group() string {
	if i := strings.IndexByte(o.APIVersion, '/'); i >= 0 {
		return o.APIVersion[:i]
	}
	return ""
}

// Version returns the API version without the group ("v1").
func (o *Object) Version() string {
	if i := strings.IndexByte(o.APIVersion, '/'); i >= 0 {
		return o.APIVersion[i+1:]
	}
	return o.APIVersion
}

// String names the object the way kubectl prints it: "deployment.apps/web",
// "configmap/settings".
func (o *Object) String() string {
	k := strings.ToLower(o.Kind)
	if g := o.Group(); g != "" {
		k += "." + g
	}
	return k + "/" + o.Name
}

// Key identifies the object within a set: group, kind, namespace, name.
func (o *Object) Key() string {
	return o.Group() + "/" + o.Kind + "/" + o.Namespace + "/" + o.Name
}

// Get returns the value at path (map keys, or decimal indexes for lists).
func (o *Object) Get(path ...string) (any, bool) {
	var cur any = o.Content
	for _, p := range path {
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[p]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(p)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// GetString returns the string at path, or "" when absent or not a string.
func (o *Object) GetString(path ...string) string {
	v, _ := o.Get(path...)
	s, _ := v.(string)
	return s
}

// Labels returns metadata.labels as strings (non-string values skipped).
func (o *Object) Labels() map[string]string { return o.stringMap("metadata", "labels") }

// Annotations returns metadata.annotations as strings.
func (o *Object) Annotations() map[string]string {
	return o.stringMap("metadata", "annotations")
}

func (o *Object) stringMap(path ...string) map[string]string {
	v, _ := o.Get(path...)
	m, _ := v.(map[string]any)
	out := make(map[string]string, len(m))
	for k, v := range m {
		if s, ok := v.(string); ok {
			out[k] = s
		}
	}
	return out
}

// Start is the position of the object's first field.
func (o *Object) Start() Pos {
	if o.Root == nil && o.Lazy != nil && o.Lazy.Data != nil {
		// The first line with content: where the fast decoder's top-level
		// mapping starts. No need to build the position tree for it.
		return o.Lazy.firstContent()
	}
	root, lines := o.Tree()
	if root == nil {
		if o.Lazy != nil {
			return Pos{Line: o.Lazy.line, Col: 1}
		}
		return Pos{Line: 1, Col: 1}
	}
	return lines.pos(root.Line, root.Column)
}

// Pos returns the position a message about the field at path should point
// at: the value itself for scalars, the key for mappings and lists (their
// value starts on a later line). When the path does not exist, the position
// of the deepest part that does.
func (o *Object) Pos(path ...string) Pos {
	s, _ := o.Span(path...)
	return s
}

// KeyPos returns the position of the key of the field at path (the item for
// list elements), or of the deepest existing ancestor.
func (o *Object) KeyPos(path ...string) Pos {
	if p, ok := o.blameKeyPos(path); ok {
		return p
	}
	key, _, _ := o.lookup(path)
	return o.pos(key)
}

// Span returns start and end of the field at path, see Pos. End is on the
// same line and just past a scalar's text; for other nodes it equals start.
func (o *Object) Span(path ...string) (start, end Pos) {
	if s, e, ok := o.blameSpan(path); ok {
		return s, e
	}
	key, val, full := o.lookup(path)
	n := key
	if full && val != nil && val.Kind == yaml.ScalarNode {
		n = val
	}
	start = o.pos(n)
	end = start
	if n != nil && n.Kind == yaml.ScalarNode && !strings.Contains(n.Value, "\n") {
		w := len([]rune(n.Value))
		if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
			w += 2
		}
		end.Col = start.Col + w
	}
	return start, end
}

// Has reports whether path exists in the source tree.
func (o *Object) Has(path ...string) bool {
	if b, full := o.blameFor(path); b != nil {
		return full
	}
	_, _, full := o.lookup(path)
	return full
}

func (o *Object) pos(n *yaml.Node) Pos {
	if n == nil {
		return o.Start()
	}
	_, lines := o.Tree()
	return lines.pos(n.Line, n.Column)
}

// lookup walks path in the node tree. It returns the node to point at for
// the deepest part found (the key node for map entries), its value node, and
// whether the whole path was found.
func (o *Object) lookup(path []string) (key, val *yaml.Node, full bool) {
	path = o.basePath(path)
	root, _ := o.Tree()
	cur := root
	key = root
	for _, p := range path {
		cur = Deref(cur)
		if cur == nil {
			return key, nil, false
		}
		switch cur.Kind {
		case yaml.MappingNode:
			k, v := MapEntry(cur, p)
			if k == nil {
				return key, nil, false
			}
			key, cur = k, v
		case yaml.SequenceNode:
			i, err := strconv.Atoi(p)
			if err != nil || i < 0 || i >= len(cur.Content) {
				return key, nil, false
			}
			cur = cur.Content[i]
			key = Deref(cur)
		default:
			return key, nil, false
		}
	}
	return key, Deref(cur), true
}

// MapEntry finds key p in mapping m, looking through merge keys.
func MapEntry(m *yaml.Node, p string) (k, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == p && m.Content[i].ShortTag() != mergeTag {
			return m.Content[i], m.Content[i+1]
		}
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].ShortTag() != mergeTag {
			continue
		}
		src := Deref(m.Content[i+1])
		if src == nil {
			continue
		}
		srcs := []*yaml.Node{src}
		if src.Kind == yaml.SequenceNode {
			srcs = src.Content
		}
		for _, s := range srcs {
			if s = Deref(s); s != nil && s.Kind == yaml.MappingNode {
				if k, v := MapEntry(s, p); k != nil {
					return k, v
				}
			}
		}
	}
	return nil, nil
}

func Deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 100; i++ {
		n = n.Alias
	}
	if n != nil && n.Kind == yaml.AliasNode {
		return nil
	}
	return n
}
