package manifest

import (
	"path/filepath"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// blame is where a field of a built object was set when that is not the
// document the object came from: a patch or an entry of an overlay's
// kustomization.
type blame struct {
	rel      string // the file, relative to the directory of the object's file
	key, val *yaml.Node
	line     int // added to the nodes' lines
	col      int // added to the nodes' columns
}

func (b *blame) pos(n *yaml.Node) Pos { return Pos{Line: n.Line + b.line, Col: n.Column + b.col} }

func blameKey(path []string) string { return strings.Join(path, "\x00") }

// blameFor is the blame of the field at path or of its closest blamed
// ancestor (a subtree a patch added), nil when the object's own document
// set it.
func (o *Object) blameFor(path []string) (*blame, bool) {
	if o.blame == nil {
		return nil, false
	}
	for i := len(path); i > 0; i-- {
		if b := o.blame[blameKey(path[:i])]; b != nil {
			return b, i == len(path)
		}
	}
	return nil, false
}

// FileOf is the file that set the field at path: File, unless an overlay
// of a kustomization (a patch, an images or namespace entry...) set it.
func (o *Object) FileOf(path ...string) string {
	if b, _ := o.blameFor(path); b != nil {
		return filepath.Join(filepath.Dir(o.File), b.rel)
	}
	return o.File
}

// blameSpan is Span for a field an overlay set.
func (o *Object) blameSpan(path []string) (start, end Pos, ok bool) {
	b, full := o.blameFor(path)
	if b == nil {
		return Pos{}, Pos{}, false
	}
	n := b.key
	if full && b.val != nil && b.val.Kind == yaml.ScalarNode || n == nil {
		n = b.val
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
	if b.key != nil {
		return b.pos(b.key), true
	}
	return b.pos(b.val), true
}

// basePath is path as the object's own document has it: a patch may have
// moved list items (see diffPaths).
func (o *Object) basePath(path []string) []string {
	for i := len(path); i > 0 && o.moved != nil; i-- {
		if to, ok := o.moved[blameKey(path[:i])]; ok {
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
	for _, b := range o.blame {
		f := filepath.Join(filepath.Dir(o.File), b.rel)
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}
