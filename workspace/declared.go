package workspace

import (
	"os"
	"path/filepath"

	"github.com/kubeplan/kubeplan/internal/config"
	"github.com/kubeplan/kubeplan/internal/confine"
	"github.com/kubeplan/kubeplan/project"
)

// DeclaredFrom is where lint's PATHs (the current directory without
// one) look for the kubeplan.yaml that may declare their projects: the
// first PATH, or the directory of a file PATH; ok is false when it does
// not exist (lint then says so, as it always has).
func DeclaredFrom(paths []string) (from string, ok bool) {
	if len(paths) == 0 {
		paths = []string{"."}
	}
	from = paths[0]
	if fi, err := os.Stat(from); err != nil || !fi.IsDir() {
		from = filepath.Dir(from)
	}
	if fi, err := os.Stat(from); err != nil || !fi.IsDir() {
		return "", false
	}
	return from, true
}

// Declared are the projects kubeplan.yaml declares (projects:), with
// their settings, that are in or read the paths (the current directory
// without one): those in or reading a directory PATH, those reading a
// file PATH (a values file, a patch, a template, as the pre-commit hook
// passes them). rest are the paths no declared project covers. The
// config declares projects only when it is in the git work tree holding
// from (DeclaredFrom), at or above it; a --config elsewhere has settings,
// not projects. d is the workspace rooted at the config's directory, nil
// when no declared project applies.
func (w *Workspace) Declared(from string, paths []string) (d *Workspace, ps []project.Project, rest []string, err error) {
	cfg := w.Config
	if cfg.Dir == "" || cfg.Projects == nil {
		return nil, nil, nil, nil
	}
	fromAbs, err := filepath.Abs(from)
	if err != nil {
		return nil, nil, nil, err
	}
	if !confine.Inside(cfg.Dir, fromAbs) || !confine.Inside(config.RepoRoot(fromAbs), cfg.Dir) {
		return nil, nil, nil, nil
	}
	if len(paths) == 0 {
		paths = []string{"."}
	}
	d = w.WithRoot(config.RelToWD(cfg.Dir))
	all, err := d.Projects()
	if err != nil {
		return nil, nil, nil, err
	}
	ps, rest = project.ForPaths(d.Root(), all, paths)
	if len(ps) == 0 {
		return nil, nil, nil, nil
	}
	return d, ps, rest, nil
}
