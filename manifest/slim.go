package manifest

import yaml "go.yaml.in/yaml/v3"

// Slim returns a copy of o that keeps only its identity, the annotations
// named in keep, and the positions of its start and metadata.name: enough
// for set-wide checks such as duplicate detection, at a tiny fraction of the
// memory.
func (o *Object) Slim(keep ...string) *Object {
	s := &Object{File: o.File, Doc: o.Doc, Kustomization: o.Kustomization,
		APIVersion: o.APIVersion, Kind: o.Kind, Name: o.Name, Namespace: o.Namespace, lines: o.lines}
	md := map[string]any{}
	for _, k := range []string{"name", "namespace", "generateName"} {
		if v := o.GetString("metadata", k); v != "" {
			md[k] = v
		}
	}
	if len(keep) > 0 {
		ann := o.Annotations()
		kept := map[string]any{}
		for _, k := range keep {
			if v, ok := ann[k]; ok {
				kept[k] = v
			}
		}
		if len(kept) > 0 {
			md["annotations"] = kept
		}
	}
	s.Content = map[string]any{"apiVersion": o.APIVersion, "kind": o.Kind, "metadata": md}
	if o.root == nil {
		return s
	}
	root := &yaml.Node{Kind: yaml.MappingNode, Line: o.root.Line, Column: o.root.Column}
	if k, _, ok := o.lookup([]string{"metadata"}); ok {
		meta := &yaml.Node{Kind: yaml.MappingNode, Line: k.Line, Column: k.Column}
		if nk, nv, ok := o.lookup([]string{"metadata", "name"}); ok && nv != nil {
			meta.Content = []*yaml.Node{copyScalar(nk), copyScalar(nv)}
		}
		root.Content = []*yaml.Node{copyScalar(k), meta}
	}
	s.root = root
	return s
}

func copyScalar(n *yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Value: n.Value, Line: n.Line, Column: n.Column, Style: n.Style, Tag: n.Tag}
}
