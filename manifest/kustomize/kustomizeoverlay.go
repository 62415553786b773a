package kustomize

import (
	"path/filepath"
	"strconv"
	"strings"

	"github.com/kubeplan/kubeplan/internal/confine"
	"github.com/kubeplan/kubeplan/manifest"
	yaml "go.yaml.in/yaml/v3"
)

// kustomization blames fields on the patches and entries of one
// kustomization: patches first, then the transformers.
func (b *blamer) kustomization(k readKustomization, top *yaml.Node) {
	b.file, b.line, b.col, b.fixed = k.File, 0, 0, nil
	for i := 0; i+1 < len(top.Content); i += 2 {
		key, val := top.Content[i].Value, top.Content[i+1]
		if val.Kind != yaml.SequenceNode {
			continue
		}
		for _, item := range val.Content {
			switch key {
			case "patchesStrategicMerge":
				b.patch(k, item, nil, nil)
			case "patches", "patchesJson6902":
				_, path := manifest.MapEntry(item, "path")
				_, inline := manifest.MapEntry(item, "patch")
				_, target := manifest.MapEntry(item, "target")
				b.patch(k, path, inline, target)
			}
		}
	}
	b.file, b.line, b.col, b.fixed = k.File, 0, 0, nil
	for i := 0; i+1 < len(top.Content); i += 2 {
		b.transformer(top.Content[i], top.Content[i+1])
	}
}

// patch blames fields on a patch: a file (path) or inline text.
func (b *blamer) patch(k readKustomization, path, inline, target *yaml.Node) {
	if target != nil && !b.targets(target) {
		return
	}
	b.targeted = target != nil
	defer func() { b.targeted = false }()
	switch {
	case inline != nil && inline.Kind == yaml.ScalarNode:
		b.text(k.File, inline, inline.Value, k.Data)
	case path != nil && path.Kind == yaml.ScalarNode && strings.Contains(path.Value, "\n"):
		b.text(k.File, path, path.Value, k.Data) // patchesStrategicMerge takes inline patches too
	case path != nil && path.Kind == yaml.ScalarNode:
		p := filepath.Join(k.dir, path.Value)
		b.file, b.line, b.col, b.fixed = b.rfs.display(p), 0, 0, nil
		b.docs(b.cache.docs("file:"+p, func() []byte {
			data, _ := confine.ReadFile(p, b.root)
			return data
		}))
	}
	b.file, b.line, b.col, b.fixed = k.File, 0, 0, nil
}

// text blames fields on a patch written inline in the kustomization file:
// at their place inside a literal block, else at the patch itself.
func (b *blamer) text(file string, n *yaml.Node, text string, kdata []byte) {
	b.file, b.line, b.col, b.fixed = file, 0, 0, n
	if n.Style == yaml.LiteralStyle {
		lines := strings.Split(string(kdata), "\n")
		if n.Line < len(lines) {
			first := lines[n.Line] // the block's first line (yaml lines are 1-based)
			b.line, b.col, b.fixed = n.Line, len(first)-len(strings.TrimLeft(first, " ")), nil
		}
	}
	b.docs(b.cache.docs("inline:"+text, func() []byte { return []byte(text) }))
}

// docs blames fields on each document of a patch that applies to the
// object: a strategic merge patch, or a list of JSON 6902 operations.
func (b *blamer) docs(ds []patchDoc) {
	line := b.line
	for _, d := range ds {
		b.line = line + d.line - 1
		switch n := d.node; n.Kind {
		case yaml.MappingNode:
			if b.targeted || b.matches(n) {
				b.walk(b.o.Content, nil, n, nil)
			}
		case yaml.SequenceNode:
			for _, op := range n.Content {
				b.jsonOp(op)
			}
		}
	}
	b.line = line
}

// matches reports whether a strategic merge patch names the object (its
// kind, and a name the built name contains: prefixes and suffixes keep it).
func (b *blamer) matches(n *yaml.Node) bool {
	_, kind := manifest.MapEntry(n, "kind")
	if kind != nil && kind.Value != b.o.Kind {
		return false
	}
	_, md := manifest.MapEntry(n, "metadata")
	if md = manifest.Deref(md); md == nil || md.Kind != yaml.MappingNode {
		return true
	}
	_, name := manifest.MapEntry(md, "name")
	return name == nil || b.named(name.Value)
}

// named reports whether name may be the object's name where a
// kustomization names it: the name of its document, with the prefixes and
// suffixes kustomizations below added, inside the name built.
func (b *blamer) named(name string) bool {
	return strings.Contains(name, b.src) && strings.Contains(b.o.Name, name)
}

// targets reports whether a patch's target may select the object.
func (b *blamer) targets(t *yaml.Node) bool {
	if t.Kind != yaml.MappingNode {
		return true
	}
	_, kind := manifest.MapEntry(t, "kind")
	_, name := manifest.MapEntry(t, "name")
	return (kind == nil || kind.Value == b.o.Kind) && (name == nil || b.named(name.Value) || strings.ContainsAny(name.Value, "*.[(|^$"))
}

// jsonOp blames the fields a JSON 6902 add or replace sets on its value.
func (b *blamer) jsonOp(op *yaml.Node) {
	if op.Kind != yaml.MappingNode {
		return
	}
	_, kind := manifest.MapEntry(op, "op")
	_, ptr := manifest.MapEntry(op, "path")
	vk, val := manifest.MapEntry(op, "value")
	if kind == nil || ptr == nil || val == nil || (kind.Value != "add" && kind.Value != "replace") {
		return
	}
	path, ok := b.pointer(ptr.Value)
	if !ok {
		return
	}
	if v, ok := b.o.Get(path...); ok {
		b.walk(v, vk, val, path)
	}
}

// pointer turns a JSON pointer into a field path of the object ("-", the
// end of a list, becomes its last index).
func (b *blamer) pointer(p string) ([]string, bool) {
	if !strings.HasPrefix(p, "/") {
		return nil, false
	}
	parts := strings.Split(p[1:], "/")
	for i, s := range parts {
		s = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
		if s == "-" {
			l, _ := b.o.Get(parts[:i]...)
			list, ok := l.([]any)
			if !ok || len(list) == 0 {
				return nil, false
			}
			s = strconv.Itoa(len(list) - 1)
		}
		parts[i] = s
	}
	return parts, true
}
