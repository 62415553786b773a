package benchkit

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Main runs the program name: run with the command-line arguments; an
// error is printed after the program's name, and the program exits 1.
func Main(name string, run func(args []string) error) {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, name+":", err)
		os.Exit(1)
	}
}

// Start parses a benchmark's arguments into fs, checks that its -runs
// flag (runs) is at least 1, and returns the root of the kubeplan module.
func Start(fs *flag.FlagSet, args []string, runs *int) (string, error) {
	if err := fs.Parse(args); err != nil {
		return "", err
	}
	if *runs < 1 {
		return "", errors.New("-runs must be at least 1")
	}
	return ModuleRoot()
}

// Under is dir under root, unless dir is absolute: a path flag given
// relative to the module root.
func Under(root, dir string) string {
	if filepath.IsAbs(dir) {
		return dir
	}
	return filepath.Join(root, dir)
}

// Stepper is the progress printer of the program name: each line on
// stderr, after "name: ".
func Stepper(name string) func(format string, args ...any) {
	return func(format string, args ...any) {
		fmt.Fprintf(os.Stderr, name+": "+format+"\n", args...)
	}
}

// Shown is t as a lint benchmark's report shows it: paths relative to
// root, and the schema directory schemaDir as $(kubeapi.Dir()).
func Shown(t Tool, root, schemaDir string) Tool {
	t.Bin, t.Dir = Rel(root, t.Bin), Rel(root, t.Dir)
	t.Args = append([]string(nil), t.Args...)
	for i, a := range t.Args {
		a = strings.ReplaceAll(a, schemaDir, "$(kubeapi.Dir())")
		t.Args[i] = strings.ReplaceAll(a, root+"/", "")
	}
	return t
}

// DocFlag binds -doc on fs: the Markdown file whose section (its title
// line) Publish rewrites with the result.
func DocFlag(fs *flag.FlagSet, p *string, section string) {
	fs.StringVar(p, "doc", "", "Markdown file whose \""+section+"\" section to rewrite with the result (e.g. docs/benchmarks.md)")
}
