package kustomize

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/kubeplan/kubeplan/manifest"
	yaml "go.yaml.in/yaml/v3"
)

// blamer finds, for the fields of a built object that differ from the
// document it came from, the patch or kustomization entry that set them.
type blamer struct {
	o     *manifest.Object
	src   string // the name in the object's document
	root  string
	rfs   *rootFS
	diff  map[string]bool // paths that differ from (or are absent in) the document
	file  string          // the file being searched, as shown
	line  int             // and the offsets of its nodes
	col   int
	fixed *yaml.Node // when set, every field found is blamed on this node
	cache *overlayCache
	// targeted is set while a patch with a target is searched: the target
	// selected the object, whatever name the patch gives.
	targeted bool
}

// blameOverlays fills o.blame from the kustomizations the build read, the
// outermost first: the last to change a field is the one that set it.
func blameOverlays(o, src *manifest.Object, rfs *rootFS, root string, cache *overlayCache) {
	diff, moves := map[string]bool{}, map[string][]string{}
	diffPaths(o.Content, src.Content, nil, nil, diff, moves)
	if len(moves) > 0 {
		o.Moved = moves
	}
	if len(diff) == 0 {
		return
	}
	b := &blamer{o: o, src: src.Name, root: root, rfs: rfs, diff: diff, cache: cache}
	for _, k := range rfs.kustomizations {
		if ds := cache.docs("kustomization:"+k.File, func() []byte { return k.Data }); len(ds) > 0 && ds[0].node.Kind == yaml.MappingNode {
			b.kustomization(k, ds[0].node)
		}
	}
	for _, k := range rfs.kustomizations {
		if ds := cache.docs("kustomization:"+k.File, func() []byte { return k.Data }); len(ds) > 0 && ds[0].node.Kind == yaml.MappingNode {
			b.file, b.line, b.col, b.fixed = k.File, 0, 0, nil
			_, r := manifest.MapEntry(ds[0].node, "replacements")
			b.replacements(k, r)
		}
	}
}

// diffPaths records the paths of built that base lacks or holds another
// scalar at. List items are matched by merge key as strategic merge does
// (a patch moves the items it touches first); an item found at another
// index of base is recorded in moves, so that its position is looked up
// there. bpath is path as base has it.
func diffPaths(built, base any, path, bpath []string, out map[string]bool, moves map[string][]string) {
	switch v := built.(type) {
	case map[string]any:
		bm, isMap := base.(map[string]any)
		if !isMap && len(path) > 0 {
			out[manifest.BlameKey(path)] = true
		}
		for k, c := range v {
			p := append(append([]string(nil), path...), k)
			bc, has := bm[k]
			if !has {
				markAll(c, p, out)
				continue
			}
			diffPaths(c, bc, p, append(append([]string(nil), bpath...), k), out, moves)
		}
	case []any:
		bl, ok := base.([]any)
		if !ok {
			out[manifest.BlameKey(path)] = true
		}
		for i, c := range v {
			p := append(append([]string(nil), path...), strconv.Itoa(i))
			j := baseIndex(bl, c, i)
			if j < 0 {
				markAll(c, p, out)
				continue
			}
			bp := append(append([]string(nil), bpath...), strconv.Itoa(j))
			if j != i {
				moves[manifest.BlameKey(p)] = bp
			}
			diffPaths(c, bl[j], p, bp, out, moves)
		}
	default:
		if fmt.Sprint(built) != fmt.Sprint(base) || fmt.Sprintf("%T", built) != fmt.Sprintf("%T", base) {
			out[manifest.BlameKey(path)] = true
		}
	}
}

// baseIndex is the index in base of the built list item c (the i-th): the
// item with the same merge key, else the i-th; -1 when there is none.
func baseIndex(base []any, c any, i int) int {
	if m, ok := c.(map[string]any); ok {
		for _, mk := range mergeKeys {
			kv, ok := m[mk]
			if !ok {
				continue
			}
			for j, it := range base {
				if bm, ok := it.(map[string]any); ok && fmt.Sprint(bm[mk]) == fmt.Sprint(kv) {
					return j
				}
			}
			return -1
		}
	}
	if i < len(base) {
		return i
	}
	return -1
}

func markAll(v any, path []string, out map[string]bool) {
	out[manifest.BlameKey(path)] = true
	switch v := v.(type) {
	case map[string]any:
		for k, c := range v {
			markAll(c, append(append([]string(nil), path...), k), out)
		}
	case []any:
		for i, c := range v {
			markAll(c, append(append([]string(nil), path...), strconv.Itoa(i)), out)
		}
	}
}

// record blames the field at path on key and val, unless an outer
// overlay already did.
func (b *blamer) record(path []string, key, val *yaml.Node) {
	k := manifest.BlameKey(path)
	if !b.diff[k] || b.o.Blame[k] != nil {
		return
	}
	if b.fixed != nil {
		key, val = nil, b.fixed
	}
	rel, err := filepath.Rel(filepath.Dir(b.o.File), b.file)
	if err != nil {
		return
	}
	if b.o.Blame == nil {
		b.o.Blame = map[string]*manifest.Blame{}
	}
	b.o.Blame[k] = &manifest.Blame{Rel: rel, Key: key, Val: val, Line: b.line, Col: b.col}
}

// walk blames the fields the patch tree n (at path of the object, whose
// value there is v) sets to the value the object has.
func (b *blamer) walk(v any, key, n *yaml.Node, path []string) {
	n = manifest.Deref(n)
	if n == nil {
		return
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if scalarEqual(v, n) {
			b.record(path, key, n)
		}
		return
	case yaml.MappingNode:
		m, ok := v.(map[string]any)
		if !ok {
			return
		}
		if len(path) > 0 {
			b.record(path, key, n)
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i].Value
			if c, ok := m[k]; ok && !strings.HasPrefix(k, "$") {
				b.walk(c, n.Content[i], n.Content[i+1], append(append([]string(nil), path...), k))
			}
		}
	case yaml.SequenceNode:
		l, ok := v.([]any)
		if !ok {
			return
		}
		b.record(path, key, n)
		for j, item := range n.Content {
			i := listIndex(l, item, j)
			if i >= 0 {
				b.walk(l[i], nil, item, append(append([]string(nil), path...), strconv.Itoa(i)))
			}
		}
	}
}

// mergeKeys are the keys strategic merge matches list items by.
var mergeKeys = []string{"name", "mountPath", "containerPort", "devicePath", "ip", "topologyKey"}

// listIndex is the index in l of the patch list item n (the j-th): the item
// with the same merge key, or the j-th when the patch replaces the list.
func listIndex(l []any, n *yaml.Node, j int) int {
	if n = manifest.Deref(n); n != nil && n.Kind == yaml.MappingNode {
		for _, mk := range mergeKeys {
			_, kv := manifest.MapEntry(n, mk)
			if kv == nil || kv.Kind != yaml.ScalarNode {
				continue
			}
			for i, it := range l {
				if m, ok := it.(map[string]any); ok && fmt.Sprint(m[mk]) == kv.Value {
					return i
				}
			}
			return -1
		}
	}
	if j < len(l) {
		return j
	}
	return -1
}

func scalarEqual(v any, n *yaml.Node) bool {
	if v == nil {
		switch n.Value {
		case "", "~", "null", "Null", "NULL":
			return true
		}
		return false
	}
	return fmt.Sprint(v) == n.Value
}
