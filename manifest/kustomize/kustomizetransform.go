package kustomize

import (
	"strings"

	"github.com/kubeplan/kubeplan/manifest"
	yaml "go.yaml.in/yaml/v3"
)

// transformer blames fields on an entry of a kustomization that changes
// them: images, replicas, namespace, namePrefix and nameSuffix,
// commonLabels, labels and commonAnnotations.
func (b *blamer) transformer(key, val *yaml.Node) {
	for k := range b.diff {
		path := strings.Split(k, "\x00")
		last := path[len(path)-1]
		parent := ""
		if len(path) > 1 {
			parent = path[len(path)-2]
		}
		switch key.Value {
		case "namespace":
			// metadata.namespace, and the namespaces it sets in references
			// (a RoleBinding's subjects, a webhook's service)
			if v, _ := b.o.Get(path...); last == "namespace" && val.Kind == yaml.ScalarNode && v == val.Value {
				b.record(path, key, val)
			}
		case "namePrefix", "nameSuffix":
			if k == manifest.BlameKey([]string{"metadata", "name"}) && val.Kind == yaml.ScalarNode &&
				(key.Value == "namePrefix" && strings.HasPrefix(b.o.Name, val.Value) ||
					key.Value == "nameSuffix" && strings.HasSuffix(b.o.Name, val.Value)) {
				b.record(path, key, val)
			}
		case "commonLabels":
			if parent == "labels" || parent == "matchLabels" || parent == "selector" {
				b.pair(path, val, last)
			}
		case "commonAnnotations":
			if parent == "annotations" {
				b.pair(path, val, last)
			}
		case "labels":
			if parent == "labels" || parent == "matchLabels" || parent == "selector" {
				for _, item := range seqItems(val) {
					_, pairs := manifest.MapEntry(item, "pairs")
					b.pair(path, pairs, last)
				}
			}
		case "replicas":
			if k == manifest.BlameKey([]string{"spec", "replicas"}) {
				for _, item := range seqItems(val) {
					_, name := manifest.MapEntry(item, "name")
					ck, count := manifest.MapEntry(item, "count")
					got, _ := b.o.Get(path...)
					if name != nil && count != nil && b.named(name.Value) && scalarEqual(got, count) {
						b.record(path, ck, count)
					}
				}
			}
		case "images":
			if last == "image" {
				b.image(path, val)
			}
		}
	}
}

// pair blames the field at path on the entry named name of the mapping m,
// when it holds the object's value.
func (b *blamer) pair(path []string, m *yaml.Node, name string) {
	if m = manifest.Deref(m); m == nil || m.Kind != yaml.MappingNode {
		return
	}
	got, _ := b.o.Get(path...)
	if k, v := manifest.MapEntry(m, name); k != nil && v.Kind == yaml.ScalarNode && scalarEqual(got, v) {
		b.record(path, k, v)
	}
}

// image blames a container image on the images entry for its name: its
// digest, newTag or newName.
func (b *blamer) image(path []string, images *yaml.Node) {
	img, _ := b.o.Get(path...)
	s, _ := img.(string)
	name := imageName(s)
	for _, item := range seqItems(images) {
		_, n := manifest.MapEntry(item, "name")
		_, nn := manifest.MapEntry(item, "newName")
		if (n == nil || n.Value != name) && (nn == nil || nn.Value != name) {
			continue
		}
		for _, f := range []string{"digest", "newTag", "newName"} {
			if k, v := manifest.MapEntry(item, f); k != nil {
				b.record(path, k, v)
				return
			}
		}
	}
}

// imageName is an image reference without its tag and digest.
func imageName(s string) string {
	if i := strings.IndexByte(s, '@'); i >= 0 {
		s = s[:i]
	}
	if i := strings.LastIndexByte(s, ':'); i > strings.LastIndexByte(s, '/') {
		s = s[:i]
	}
	return s
}

func seqItems(n *yaml.Node) []*yaml.Node {
	if n = manifest.Deref(n); n == nil || n.Kind != yaml.SequenceNode {
		return nil
	}
	return n.Content
}
