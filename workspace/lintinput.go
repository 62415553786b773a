package workspace

import (
	"github.com/kubeplan/kubeplan/lint"
	"github.com/kubeplan/kubeplan/project"
)

// LintInput is what kubeplan lint reads for paths (the current directory
// without one) meant for namespace, from kubeplan.yaml and o's overrides:
// when the overrides select projects, the projects selected under the one
// path (none is true when there are none: an empty report, not the
// current directory); else the projects kubeplan.yaml declares under the
// paths, with their settings, and the paths no declared project covers,
// read as they are. The paths of the projects linted depend on are added
// to the CRDs. o's From and Root are set here: kubeplan.yaml is the one
// the paths find.
func LintInput(o Options, paths []string, namespace string) (in lint.Input, opts lint.Options, none bool, err error) {
	o.From, o.Root = "", ""
	ws, err := Open(o)
	if err != nil {
		return lint.Input{}, lint.Options{}, false, err
	}
	if in, opts, err = ws.Lint(Set{Paths: paths, Namespace: namespace}); err != nil {
		return in, opts, false, err
	}
	if !o.Overrides.Selecting() {
		return in, opts, false, declaredFirst(o, paths, &in)
	}
	var crds []string
	if in.ProjectRoot, in.Projects, crds, err = selectedForLint(o, paths); err != nil {
		return in, opts, false, err
	}
	in.Paths = nil
	in.CRDPaths = append(in.CRDPaths, crds...)
	return in, opts, len(in.Projects) == 0, nil
}

// selectedForLint are the projects under the one path (or the current
// directory), as kubeplan.yaml declares them, that the overrides select
// (Select) as lint takes them (ForLint); crds are the paths of the
// projects they depend on.
func selectedForLint(o Options, paths []string) (root string, ps []project.Project, crds []string, err error) {
	if root, err = RootOf(paths); err != nil {
		return "", nil, nil, err
	}
	o.From, o.Root = root, root
	ws, err := Open(o)
	if err != nil {
		return "", nil, nil, err
	}
	if ps, _, err = ws.Select(); err != nil {
		return "", nil, nil, err
	}
	ps, crds, err = ws.ForLint(ps)
	return root, ps, crds, err
}

// declaredFirst sets in to lint the projects kubeplan.yaml declares
// (projects:) under the paths with their settings, values files included
// (Declared), and the paths no declared project covers as they are; in is
// left as it is when no declared project applies.
func declaredFirst(o Options, paths []string, in *lint.Input) error {
	from, ok := DeclaredFrom(paths)
	if !ok {
		return nil
	}
	o.From = from
	ws, err := Open(o)
	if err != nil {
		return err
	}
	d, ps, rest, err := ws.Declared(from, paths)
	if err != nil || d == nil {
		return err
	}
	ps, crds, err := d.ForLint(ps)
	if err != nil {
		return err
	}
	in.ProjectRoot, in.Projects, in.Paths = d.Root(), ps, rest
	in.CRDPaths = append(in.CRDPaths, crds...)
	return nil
}
