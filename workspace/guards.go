package workspace

import (
	"github.com/kubeplan/kubeplan/internal/config"
	"github.com/kubeplan/kubeplan/internal/guard"
	"github.com/kubeplan/kubeplan/project"
)

// guards are the workspace's rules over plans, compiled once and shared
// by all its projects, and the windows of a plain invocation.
type guards struct {
	set *guard.Set
	// single are the windows of Single's project: the defaults'.
	single *guard.Schedule
	err    error
}

// compileGuards compiles kubeplan.yaml's guards: (the built-in rules
// alone without one) and its defaults' windows.
func compileGuards(cfg *config.Config) guards {
	s, err := guard.Compile(cfg.Guards)
	if err != nil {
		return guards{err: err}
	}
	// The windows compiled when the file was read (config.Parse); only a
	// Config made in code fails here.
	ws, err := guard.CompileWindows(cfg.Defaults.Windows)
	return guards{set: s, single: ws, err: err}
}

// Guards are the rules over plans of every project of the workspace:
// kubeplan.yaml's guards: and the built-in rules it leaves on, or the
// built-in rules alone without a kubeplan.yaml. The error is the one
// Open fails with, at the rule's file:line:col.
func (w *Workspace) Guards() (*guard.Set, error) { return w.guards.set, w.guards.err }

// withGuards gives each project the workspace's guards.
func (w *Workspace) withGuards(ps []project.Project) {
	for i := range ps {
		ps[i].Guards = w.guards.set
	}
}
