package manifest

import (
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// replacements blames the fields no patch or entry set on the target
// field path of an inline replacement that may have: one that selects the
// object and ends in the same field. Replacements copy values from other
// objects, so this is the closest place that set them.
func (b *blamer) replacements(list *yaml.Node) {
	for _, item := range seqItems(list) {
		_, targets := mapEntry(item, "targets")
		for _, t := range seqItems(targets) {
			_, sel := mapEntry(t, "select")
			if sel != nil && !b.targets(sel) {
				continue
			}
			_, fps := mapEntry(t, "fieldPaths")
			for _, fp := range seqItems(fps) {
				b.replaced(fp)
			}
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
		if path[len(path)-1] == last && b.o.blame[k] == nil {
			b.record(path, nil, fp)
		}
	}
}
