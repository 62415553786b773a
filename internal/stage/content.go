package stage

import "strings"

// FromContent is the Object of a manifest object given as plain values
// (apiVersion, kind, metadata, spec...), read from file; ref names it in
// messages and pos, when not nil, locates annotation values (see
// Object.Pos). Only string annotations are read: the schema check reports
// the others.
func FromContent(ref, file string, content map[string]any, pos func(key string) (string, int, int)) Object {
	md, _ := content["metadata"].(map[string]any)
	o := Object{Ref: ref, File: file, Pos: pos, Annotations: map[string]string{}}
	o.Kind, _ = content["kind"].(string)
	o.Name, _ = md["name"].(string)
	o.Namespace, _ = md["namespace"].(string)
	if av, _ := content["apiVersion"].(string); strings.Contains(av, "/") {
		o.Group, _, _ = strings.Cut(av, "/")
	}
	if ann, ok := md["annotations"].(map[string]any); ok {
		for k, v := range ann {
			if s, ok := v.(string); ok {
				o.Annotations[k] = s
			}
		}
	}
	if o.Group == "apiextensions.k8s.io" && o.Kind == "CustomResourceDefinition" {
		spec, _ := content["spec"].(map[string]any)
		names, _ := spec["names"].(map[string]any)
		o.CRDGroup, _ = spec["group"].(string)
		o.CRDKind, _ = names["kind"].(string)
	}
	return o
}
