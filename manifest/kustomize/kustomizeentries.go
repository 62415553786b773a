package kustomize

import (
	"path/filepath"
	"strings"

	"github.com/kubeplan/kubeplan/manifest"
	yaml "go.yaml.in/yaml/v3"
)

// kustomization fields that name files or bases: lists of entries, and
// lists of mappings whose listed keys are entries.
var (
	entryListFields = []string{"resources", "bases", "components", "crds", "configurations",
		"generators", "transformers", "validators", "patchesStrategicMerge"}
	entryItemFields = map[string][]string{
		"patches":            {"path"},
		"patchesJson6902":    {"path"},
		"replacements":       {"path"},
		"configMapGenerator": {"files", "envs", "env"},
		"secretGenerator":    {"files", "envs", "env"},
	}
)

// entry is a file or base a kustomization names, with its node (for its
// position); path drops a generator's "key=".
type entry struct {
	node  *yaml.Node
	path  string
	field string // the kustomization field naming it
}

// kustomizationEntries lists the files and bases a kustomization names, in
// file order by field; nil when it does not parse (kustomize reports that).
func kustomizationEntries(data []byte) []entry {
	doc, _, err := manifest.DecodeYAML(data)
	if err != nil || doc == nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil
	}
	top := doc.Content[0]
	var out []entry
	var key string
	add := func(ns []*yaml.Node, generator bool) {
		for _, n := range ns {
			p := n.Value
			if _, after, ok := strings.Cut(p, "="); ok && generator {
				p = after // "key=path"
			}
			out = append(out, entry{n, p, key})
		}
	}
	for i := 0; i+1 < len(top.Content); i += 2 {
		var val *yaml.Node
		key, val = top.Content[i].Value, top.Content[i+1]
		switch {
		case key == "openapi":
			add(mappingValues(val, "path"), false)
		case contains(entryListFields, key):
			add(scalars(val), false)
		case entryItemFields[key] != nil && val.Kind == yaml.SequenceNode:
			for _, item := range val.Content {
				add(mappingValues(item, entryItemFields[key]...), strings.HasSuffix(key, "Generator"))
			}
		}
	}
	return out
}

// entryFor finds the entry of a kustomization (data, in directory dir as
// kustomize names it) that leads to path: the entry itself or a file below
// it.
func entryFor(data []byte, dir, path string) *yaml.Node {
	if e, ok := entryLeadingTo(data, dir, path, false); ok {
		return e.node
	}
	return nil
}

// entryLeadingTo finds the entry of a kustomization that leads to path.
// With named, only an entry that names path itself or a path below it (a
// missing directory of the entry's path) counts; without, also one naming
// a directory that holds path (a base the build went through).
func entryLeadingTo(data []byte, dir, path string, named bool) (entry, bool) {
	path = filepath.Clean(path)
	sep := string(filepath.Separator)
	for _, e := range kustomizationEntries(data) {
		if strings.Contains(e.path, "://") {
			continue
		}
		p := filepath.Clean(filepath.Join(dir, e.path))
		if p == path || strings.HasPrefix(p, path+sep) || !named && strings.HasPrefix(path, p+sep) {
			return e, true
		}
	}
	return entry{}, false
}

// innermostEntry finds the entry that leads to path in the kustomizations
// read, the innermost first: the entry naming path (or a file below it)
// in whichever kustomization of the tree names it, else the last one read
// that names a directory holding it.
func innermostEntry(ks []readKustomization, path string) (readKustomization, entry, bool) {
	for _, named := range []bool{true, false} {
		for i := len(ks) - 1; i >= 0; i-- {
			if e, ok := entryLeadingTo(ks[i].Data, ks[i].dir, path, named); ok {
				return ks[i], e, true
			}
		}
	}
	return readKustomization{}, entry{}, false
}

func isKustomizationName(base string) bool {
	for _, n := range manifest.KustomizationNames() {
		if base == n {
			return true
		}
	}
	return false
}

// mappingValues are the scalar entries under keys of the mapping n.
func mappingValues(n *yaml.Node, keys ...string) []*yaml.Node {
	if n.Kind != yaml.MappingNode {
		return nil
	}
	var out []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		if contains(keys, n.Content[i].Value) {
			out = append(out, scalars(n.Content[i+1])...)
		}
	}
	return out
}

// scalars is n itself when it is a scalar, else its scalar items.
func scalars(n *yaml.Node) []*yaml.Node {
	switch n.Kind {
	case yaml.ScalarNode:
		return []*yaml.Node{n}
	case yaml.SequenceNode:
		var out []*yaml.Node
		for _, c := range n.Content {
			if c.Kind == yaml.ScalarNode {
				out = append(out, c)
			}
		}
		return out
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Info is what project discovery reads of a kustomization.
type Info struct {
	// Refs are the files and bases it names, as written ("key=" of a
	// generator entry dropped); remote and inline entries are the
	// caller's to filter.
	Refs []string
	// Component is true for kind: Component.
	Component bool
	// Namespace is its top-level namespace: field, "" when not set.
	Namespace string
}

// ReadInfo reads a kustomization file's data as the loader
// does; a file that does not parse names nothing.
func ReadInfo(data []byte) Info {
	var k Info
	for _, e := range kustomizationEntries(data) {
		k.Refs = append(k.Refs, e.path)
	}
	var head struct {
		APIVersion string `yaml:"apiVersion"`
		Kind       string `yaml:"kind"`
		Namespace  string `yaml:"namespace"`
	}
	_ = yaml.Unmarshal(data, &head)
	k.Component = head.Kind == "Component" && strings.HasPrefix(head.APIVersion, "kustomize.config.k8s.io/")
	k.Namespace = head.Namespace
	return k
}
