package main

import (
	"strings"

	"github.com/kubeplan/kubeplan/internal/benchkit"
)

// The benchmark measures each tool with benchkit.
type (
	tool   = benchkit.Tool
	sample = benchkit.Sample
)

// shown is t as the report shows it: paths relative to root, and the
// schema cache directory as kubeapi.Dir().
func shown(t tool, root, schemaDir string) tool {
	t.Bin, t.Dir = benchkit.Rel(root, t.Bin), benchkit.Rel(root, t.Dir)
	t.Args = append([]string(nil), t.Args...)
	for i, a := range t.Args {
		t.Args[i] = strings.ReplaceAll(a, schemaDir, "$(kubeapi.Dir())")
	}
	return t
}
