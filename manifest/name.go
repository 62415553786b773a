package manifest

// HasName reports whether the object sets metadata.name (rather than only
// metadata.generateName).
func (o *Object) HasName() bool {
	return o.GetString("metadata", "name") != ""
}
