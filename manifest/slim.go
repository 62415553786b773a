package manifest

// slimInfo is what a Slim copy keeps in place of the node tree.
type slimInfo struct {
	start, nameStart, nameEnd Pos
	hasName                   bool
	ann                       map[string]string
}

// Slim returns a copy of o that keeps only its identity, the annotations
// named in keep, and the positions of its start and metadata.name: enough
// for set-wide checks such as duplicate detection, in a few hundred bytes
// instead of the whole tree. On a slim copy Content is nil, Pos and Span
// know only metadata.name (other paths give the object's start), and
// Annotations returns only the kept annotations.
func (o *Object) Slim(keep ...string) *Object {
	s := &Object{File: o.File, Doc: o.Doc, Kustomization: o.Kustomization,
		APIVersion: o.APIVersion, Kind: o.Kind, Name: o.Name, Namespace: o.Namespace}
	info := &slimInfo{start: o.Start(), hasName: o.HasName()}
	info.nameStart, info.nameEnd = o.Span("metadata", "name")
	if len(keep) > 0 {
		ann := o.Annotations()
		for _, k := range keep {
			if v, ok := ann[k]; ok {
				if info.ann == nil {
					info.ann = map[string]string{}
				}
				info.ann[k] = v
			}
		}
	}
	s.slim = info
	return s
}

// HasName reports whether the object sets metadata.name (rather than only
// metadata.generateName).
func (o *Object) HasName() bool {
	if o.slim != nil {
		return o.slim.hasName
	}
	return o.GetString("metadata", "name") != ""
}

// slimSpan answers Span on a slim copy.
func (o *Object) slimSpan(path []string) (Pos, Pos) {
	if len(path) == 2 && path[0] == "metadata" && path[1] == "name" && o.slim.hasName {
		return o.slim.nameStart, o.slim.nameEnd
	}
	return o.slim.start, o.slim.start
}
