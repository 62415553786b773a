package kustomize

import (
	"path/filepath"
	"strings"

	"github.com/kubeplan/kubeplan/internal/confine"
	"github.com/kubeplan/kubeplan/manifest"
	yaml "go.yaml.in/yaml/v3"
)

// replacements blames the fields no patch or entry set on the target
// field path of an inline replacement that may have: one that selects the
// object and ends in the same field. Replacements copy values from other
// objects, so this is the closest place that set them.
func (b *blamer) replacements(k readKustomization, list *yaml.Node) {
	for _, item := range seqItems(list) {
		if _, path := manifest.MapEntry(item, "path"); path != nil && path.Kind == yaml.ScalarNode {
			b.replacementFile(filepath.Join(k.dir, path.Value))
			b.file, b.line, b.col, b.fixed = k.File, 0, 0, nil
			continue
		}
		b.replacement(item)
	}
}

// replacementFile reads replacements from a file: one per document, or a
// list of them.
func (b *blamer) replacementFile(p string) {
	b.file = b.rfs.display(p)
	for _, d := range b.cache.docs("file:"+p, func() []byte {
		data, _ := confine.ReadFile(p, b.root)
		return data
	}) {
		b.line = d.line - 1
		if d.node.Kind == yaml.SequenceNode {
			for _, item := range d.node.Content {
				b.replacement(item)
			}
		} else {
			b.replacement(d.node)
		}
	}
}

// replacement blames fields on the targets of one replacement.
func (b *blamer) replacement(item *yaml.Node) {
	_, targets := manifest.MapEntry(item, "targets")
	for _, t := range seqItems(targets) {
		_, sel := manifest.MapEntry(t, "select")
		if sel != nil && !b.targets(sel) {
			continue
		}
		_, fps := manifest.MapEntry(t, "fieldPaths")
		for _, fp := range seqItems(fps) {
			b.replaced(fp)
		}
	}
}

// replaced blames the changed fields whose last part is the last part of
// the field path fp ("spec.template.spec.containers.[name=app].image").
func (b *blamer) replaced(fp *yaml.Node) {
	if fp.Kind != yaml.ScalarNode {
		return
	}
	last := fp.Value[strings.LastIndexByte(fp.Value, '.')+1:]
	for k := range b.diff {
		path := strings.Split(k, "\x00")
		if path[len(path)-1] == last && b.o.Blame[k] == nil {
			b.record(path, nil, fp)
		}
	}
}
