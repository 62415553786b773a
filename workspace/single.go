package workspace

import "github.com/kubeplan/kubeplan/project"

// Single makes the workspace the one project of a plain invocation
// (kubeplan plan -n NS --applyset configmap/x PATH...): what its flags
// name, read as a set (see Lint: a chart among the paths renders in the
// set's namespace), for the namespace of its cluster and the ApplySet
// applySet ("" for none). The workspace then holds that project only,
// and it depends on none.
func (w *Workspace) Single(paths []string, applySet string) project.Project {
	p := project.Project{ApplySet: applySet}
	w.single, w.isSingle = paths, true
	w.all, w.loaded = []project.Project{p}, true
	return p
}
