package config

import (
	"time"

	"github.com/kubeplan/kubeplan/internal/yamlnode"
	yaml "go.yaml.in/yaml/v3"
)

// decoder walks the YAML nodes of one config file; every error it makes
// names the file, line and column of the node at fault.
type decoder struct{ file string }

// y is the shared decoder of this file.
func (d decoder) y() yamlnode.Decoder { return yamlnode.Decoder{File: d.file, Doc: "docs/config.md"} }

// errorf makes an error at n.
func (d decoder) errorf(n *yaml.Node, format string, args ...any) error {
	return d.y().Errorf(n, format, args...)
}

// fields calls set[key] with the value of each key of the mapping n
// (yamlnode.Decoder.Fields).
func (d decoder) fields(n *yaml.Node, where string, set map[string]func(v *yaml.Node) error) error {
	return d.y().Fields(n, where, set)
}

// str reads a scalar as written ("1.30" stays "1.30"); null is "".
func (d decoder) str(n *yaml.Node, where string) (string, error) { return d.y().Str(n, where) }

// interval reads a Go duration of at least a second ("30s", "5m", "1h");
// null is 0 (not set).
func (d decoder) interval(n *yaml.Node, where string) (time.Duration, error) {
	s, err := d.str(n, where)
	if err != nil || s == "" {
		return 0, err
	}
	v, err := time.ParseDuration(s)
	if err != nil || v < time.Second {
		return 0, d.errorf(deref(n), "%s: want a duration of at least 1s such as 30s, 5m or 1h, got %q", where, s)
	}
	return v, nil
}

// boolean reads true or false; null is false.
func (d decoder) boolean(n *yaml.Node, where string) (bool, error) { return d.y().Bool(n, where) }

// strList reads a list of strings and where each is; null is empty.
func (d decoder) strList(n *yaml.Node, where string) ([]string, []Pos, error) {
	s, nodes, err := d.y().StrList(n, where)
	var pos []Pos
	for _, e := range nodes {
		pos = append(pos, at(e))
	}
	return s, pos, err
}

// The node helpers, as yamlnode has them.
var (
	deref    = yamlnode.Deref
	isNull   = yamlnode.IsNull
	kindName = yamlnode.KindName
)

// at is where n is.
func at(n *yaml.Node) Pos { return Pos{n.Line, n.Column} }
