package guard

import (
	"github.com/kubeplan/kubeplan/internal/yamlnode"
	yaml "go.yaml.in/yaml/v3"
)

// decoder walks the YAML nodes of one file; every error it makes names the
// file, line and column of the node at fault, as internal/config's do.
// data is the file's text when the decoder has it (rule files), for
// positions inside block scalars.
type decoder struct {
	file string
	data []byte
}

// y is the shared decoder of this file.
func (d decoder) y() yamlnode.Decoder { return yamlnode.Decoder{File: d.file, Doc: "docs/guards.md"} }

// errorf makes an error at n.
func (d decoder) errorf(n *yaml.Node, format string, args ...any) error {
	return d.y().Errorf(n, format, args...)
}

// fields calls set[key] with the value of each key of the mapping n
// (yamlnode.Decoder.Fields).
func (d decoder) fields(n *yaml.Node, where string, set map[string]func(v *yaml.Node) error) error {
	return d.y().Fields(n, where, set)
}

// str reads a scalar as written; null is "".
func (d decoder) str(n *yaml.Node, where string) (string, error) { return d.y().Str(n, where) }

// boolean reads true or false; null is false.
func (d decoder) boolean(n *yaml.Node, where string) (bool, error) { return d.y().Bool(n, where) }

// strList reads a list of strings; null is empty.
func (d decoder) strList(n *yaml.Node, where string) ([]string, error) {
	s, _, err := d.y().StrList(n, where)
	return s, err
}

// The node helpers, as yamlnode has them.
var (
	deref    = yamlnode.Deref
	isNull   = yamlnode.IsNull
	kindName = yamlnode.KindName
)

// at is where n is.
func at(n *yaml.Node) Pos { return Pos{n.Line, n.Column} }
