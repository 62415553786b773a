package kustomize

import (
	"path/filepath"
	"strings"

	"github.com/kubeplan/kubeplan/internal/confine"
	"github.com/kubeplan/kubeplan/manifest"
	yaml "go.yaml.in/yaml/v3"
)

// generatorFields are the kustomization fields of the built-in generators,
// by the kind kustomize names them with in an origin.
var generatorFields = map[string]string{
	"ConfigMapGenerator": "configMapGenerator",
	"SecretGenerator":    "secretGenerator",
}

// generated points an object a configMapGenerator or secretGenerator made
// at its entry in the kustomization (file, as shown): the object starts at
// the entry, and each data key at the literal, file or env entry that
// made it. It reports false when the entry is not found.
func generated(o *manifest.Object, file, root, kind string) bool {
	field := generatorFields[kind]
	data, err := confine.ReadFile(file, root)
	if field == "" || err != nil {
		return false
	}
	doc, _, err := manifest.DecodeYAML(data)
	if err != nil || doc == nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return false
	}
	_, list := manifest.MapEntry(doc.Content[0], field)
	name, _ := o.Get("metadata", "name")
	built, _ := name.(string)
	var entry *yaml.Node
	best := -1
	for _, item := range seqItems(list) {
		if _, n := manifest.MapEntry(item, "name"); n != nil && strings.Contains(built, n.Value) && len(n.Value) > best {
			entry, best = item, len(n.Value)
		}
	}
	if entry == nil {
		return false
	}
	o.File, o.Root, o.Lines = file, entry, manifest.NewLineMap(manifest.Chunk{Data: data, Line: 1})
	for _, f := range []string{"data", "binaryData", "stringData"} {
		m, _ := o.Get(f)
		keys, _ := m.(map[string]any)
		for k := range keys {
			if n := generatorSource(entry, k); n != nil {
				if o.Blame == nil {
					o.Blame = map[string]*manifest.Blame{}
				}
				o.Blame[manifest.BlameKey([]string{f, k})] = &manifest.Blame{Rel: filepath.Base(file), Val: n}
			}
		}
	}
	return true
}

// generatorSource is the entry of a generator that made key: a literal
// "key=value", a file "key=path" or named key, else its only env file.
func generatorSource(entry *yaml.Node, key string) *yaml.Node {
	_, lits := manifest.MapEntry(entry, "literals")
	for _, n := range scalars(orEmpty(lits)) {
		if strings.HasPrefix(n.Value, key+"=") {
			return n
		}
	}
	_, files := manifest.MapEntry(entry, "files")
	for _, n := range scalars(orEmpty(files)) {
		k, _, ok := strings.Cut(n.Value, "=")
		if ok && k == key || !ok && filepath.Base(n.Value) == key {
			return n
		}
	}
	envs := mappingValues(entry, "envs", "env")
	if len(envs) == 1 {
		return envs[0]
	}
	return nil
}

func orEmpty(n *yaml.Node) *yaml.Node {
	if n == nil {
		return &yaml.Node{}
	}
	return n
}
