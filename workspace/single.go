package workspace

import "github.com/kubeplan/kubeplan/project"

// Single makes the workspace the one project of a plain invocation
// (kubeplan plan -n NS --applyset configmap/x PATH...): what its flags
// name, read as a set (see Lint: a chart among the paths renders in the
// set's namespace), for the namespace of its cluster and the ApplySet
// applySet ("" for none). The workspace then holds that project only,
// and it depends on none.
//
// Its guards are the workspace's, as every project's: a plain invocation
// in a repository whose kubeplan.yaml denies a change is denied too. Its
// windows are the defaults' of that kubeplan.yaml (nil without any); it
// is no entry of projects:, so it has no windows of its own. So with
// rollOnConfigChange: the defaults' is its own.
func (w *Workspace) Single(paths []string, applySet string) project.Project {
	p := project.Project{ApplySet: applySet, Guards: w.guards.set, Windows: w.guards.single}
	if r := w.Config.Defaults.RollOnConfigChange; r != nil {
		p.RollOnConfigChange = *r
	}
	p.Yield = w.Config.ProjectYield(nil) // the top level's and the defaults' yield rules
	w.single, w.isSingle = paths, true
	w.allMu.Lock()
	w.all, w.loaded = []project.Project{p}, true
	w.allMu.Unlock()
	return p
}
