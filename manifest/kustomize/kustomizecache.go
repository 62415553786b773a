package kustomize

import (
	yaml "go.yaml.in/yaml/v3"

	"github.com/kubeplan/kubeplan/manifest"
)

// overlayCache keeps the kustomizations and patches of one build parsed,
// for all the objects it makes.
type overlayCache struct {
	parsed map[string][]patchDoc
}

// patchDoc is one document of a file: its top node and the line it
// starts on.
type patchDoc struct {
	node *yaml.Node
	line int
}

// docs are the documents of the text load returns, parsed once per key (a
// path, or inline text).
func (c *overlayCache) docs(key string, load func() []byte) []patchDoc {
	if ds, ok := c.parsed[key]; ok {
		return ds
	}
	var ds []patchDoc
	for _, ch := range manifest.SplitDocuments(load()) {
		doc, _, err := manifest.DecodeYAML(ch.Data)
		if err == nil && doc != nil && len(doc.Content) > 0 {
			ds = append(ds, patchDoc{doc.Content[0], ch.Line})
		}
	}
	if c.parsed == nil {
		c.parsed = map[string][]patchDoc{}
	}
	c.parsed[key] = ds
	return ds
}
