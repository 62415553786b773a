package workspace

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/kubeplan/kubeplan/internal/confine"
	"github.com/kubeplan/kubeplan/project"
)

// RootOf is the repository directory of a run over projects: its one
// PATH, or the current directory. A PATH in the checkout that the pull
// request made a link out of it is refused: its projects would be read
// from elsewhere.
func RootOf(args []string) (string, error) {
	root := "."
	switch len(args) {
	case 0:
	case 1:
		root = args[0]
	default:
		return "", errors.New("--project, --all and --changed-since take one PATH (the repository or a directory of it), not several")
	}
	if err := confine.Within(root, confine.RootFor(root)); err != nil {
		return "", err
	}
	return root, nil
}

// Projects are every project under Root, sorted by path (project.Load:
// declared in kubeplan.yaml, or discovered, with their settings, their
// windows among them), each with the workspace's Guards. They are loaded
// once.
func (w *Workspace) Projects() ([]project.Project, error) {
	w.allMu.Lock()
	defer w.allMu.Unlock()
	if !w.loaded {
		if w.guards.err != nil {
			return nil, w.guards.err
		}
		exclude := append(w.Config.ExcludePatterns(), w.o.Overrides.Exclude...)
		all, err := project.Load(w.Root(), w.Config, project.Options{Exclude: exclude})
		if err != nil {
			return nil, err
		}
		w.withGuards(all)
		w.all, w.loaded = all, true
	}
	return w.all, nil
}

// Select returns the projects the overrides select, sorted by path: those
// a change since ChangedSince affects (all without it), of those the ones
// Projects names (all without names). all are every project.
//
// With ChangedSince, git's changes are read while the projects are found
// (they need nothing of each other).
func (w *Workspace) Select() (selected, all []project.Project, err error) {
	changes := w.readChanges()
	if all, err = w.Projects(); err != nil {
		return nil, nil, err
	}
	if selected, err = w.changedSince(all, changes); err != nil || len(w.o.Overrides.Projects) == 0 {
		return selected, all, err
	}
	selected, err = Named(selected, all, w.o.Overrides.Projects)
	return selected, all, err
}

// changesRead is what readChanges started: the changes, once done is closed.
type changesRead struct {
	done chan struct{}
	ch   *project.Changes
	err  error
}

// readChanges starts reading the changes since the overrides'
// ChangedSince revision; nil without one.
func (w *Workspace) readChanges() *changesRead {
	if w.o.Overrides.ChangedSince == "" {
		return nil
	}
	r := &changesRead{done: make(chan struct{})}
	go func() {
		defer close(r.done)
		r.ch, r.err = project.ReadChanges(w.Root(), w.o.Overrides.ChangedSince)
	}()
	return r
}

// changedSince keeps the projects of ps the changes affect; all of them
// without any to read.
func (w *Workspace) changedSince(ps []project.Project, r *changesRead) ([]project.Project, error) {
	if r == nil {
		return ps, nil
	}
	<-r.done
	if r.err != nil {
		return nil, r.err
	}
	return r.ch.Affected(w.Root(), ps)
}

// UnknownProjectsError is a selection naming projects there are not.
type UnknownProjectsError struct {
	// Missing are the names no project has, in the order given.
	Missing []string
	// Known are the names of every project.
	Known []string
}

func (e *UnknownProjectsError) Error() string {
	return fmt.Sprintf("--project %s: no such project (kubeplan projects lists them: %s)", e.Missing[0], strings.Join(e.Known, ", "))
}

// Named keeps the projects of ps named in names, in ps's order; the names
// that are no project of all make an *UnknownProjectsError (the projects
// found are returned with it).
func Named(ps, all []project.Project, names []string) ([]project.Project, error) {
	var out []project.Project
	for _, p := range ps {
		if slices.Contains(names, p.Name) {
			out = append(out, p)
		}
	}
	var missing, known []string
	for _, p := range all {
		known = append(known, p.Name)
	}
	for _, n := range names {
		if !slices.Contains(known, n) {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		return out, &UnknownProjectsError{Missing: missing, Known: known}
	}
	return out, nil
}
