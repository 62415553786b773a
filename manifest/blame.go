package manifest

import (
	"path/filepath"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// Blame is where a field of a built object was set when that is not the
// document the object came from: a patch or an entry of an overlay's
// kustomization.
type Blame struct {
	Rel      string // the file, relative to the directory of the object's file
	Key, Val *yaml.Node
	Line     int // added to the nodes' lines
	Col      int // added to the nodes' columns
}

func (b *Blame) pos(n *yaml.Node) Pos { return Pos{Line: n.Line + b.Line, Col: n.Column + b.Col} }

func BlameKey(path []string) string { return strings.Join(path, "\x00") }

// blameFor is the blame of the field at path or of its closest blamed
// ancestor (a subtree a patch added), nil when the object's own document
// set it.
func (o *Object) blameFor(path []string) (*Blame, bool) {
	if o.Blame == nil {
		return nil, false
	}
	for i := len(path); i > 0; i-- {
		if b := o.Blame[BlameKey(path[:i])]; b != nil {
			return b, i == len(path)
		}
	}
	return nil, false
}

// FileOf is the file that set the field at path: File, unless an overlay
// of a kustomization (a patch, an images or namespace entry...) set it.
func (o *Object) FileOf(path ...string) string {
	if b, _ := o.blameFor(path); b != nil {
		return filepath.Join(filepath.Dir(o.File), b.Rel)
	}
	return o.File
}

// blameSpan is Span for a field an overlay set.
func (o *Object) blameSpan(path []string) (start, end Pos, ok bool) {
	b, full := o.blameFor(path)
	if b == nil {
		return Pos{}, Pos{}, false
	}
	n := b.Key
	if full && b.Val != nil && b.Val.Kind == yaml.ScalarNode || n == nil {
		n = b.Val
	}
	start = b.pos(n)
	end = start
	if n.Kind == yaml.ScalarNode && !strings.Contains(n.Value, "\n") {
		w := len([]rune(n.Value))
		if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
			w += 2
		}
		end.Col = start.Col + w
	}
	return start, end, true
}

// blameKeyPos is KeyPos for a field an overlay set.
func (o *Object) blameKeyPos(path []string) (Pos, bool) {
	b, _ := o.blameFor(path)
	if b == nil {
		return Pos{}, false
	}
	if b.Key != nil {
		return b.pos(b.Key), true
	}
	return b.pos(b.Val), true
}

// basePath is path as the object's own document has it: a patch may have
// moved list items (see diffPaths).
func (o *Object) basePath(path []string) []string {
	for i := len(path); i > 0 && o.Moved != nil; i-- {
		if to, ok := o.Moved[BlameKey(path[:i])]; ok {
			return append(append([]string(nil), to...), path[i:]...)
		}
	}
	return path
}

// Files are the files the object's fields were set in: File, and those
// of the overlays that set some.
func (o *Object) Files() []string {
	out := []string{o.File}
	seen := map[string]bool{o.File: true}
	for _, b := range o.Blame {
		f := filepath.Join(filepath.Dir(o.File), b.Rel)
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}
