package project

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/kubeplan/kubeplan/internal/config"
	"github.com/kubeplan/kubeplan/source"
)

// ChangedSince returns the projects (found under root by Discover or Load) that a
// change since the git revision ref affects: the commits from ref to HEAD
// and the uncommitted changes of the work tree (untracked files included).
// A project is affected when a file it reads changed (its own files, its
// bases, Components, patches and generator inputs, a chart's files) or a
// path below its directory or its chart's did (a file deleted since),
// except a chart's values file that only other projects name; a change to
// the config (kubeplan.yaml, or the legacy .kubeplan.yaml) in root or a
// directory above it affects them all; one deeper down is another tree's.
func ChangedSince(root, ref string, ps []Project) ([]Project, error) {
	ch, err := ReadChanges(root, ref)
	if err != nil {
		return nil, err
	}
	return ch.Affected(root, ps)
}

// Changes are the paths that changed since a revision (source.ChangedPaths),
// relative to the repository's root, RepoRoot.
type Changes struct {
	Paths    map[string]bool
	RepoRoot string
}

// ReadChanges reads what changed since ref in the repository holding root:
// the git half of ChangedSince, which needs no project, so that it can run
// while the projects are found.
func ReadChanges(root, ref string) (*Changes, error) {
	changed, repoRoot, err := source.ChangedPaths(root, ref)
	if err != nil {
		return nil, fmt.Errorf("--changed-since %w", err)
	}
	return &Changes{Paths: changed, RepoRoot: repoRoot}, nil
}

// Affected returns the projects of ps (found under root) that ch affects,
// as ChangedSince says.
func (ch *Changes) Affected(root string, ps []Project) ([]Project, error) {
	changed, repoRoot := ch.Paths, ch.RepoRoot
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	rel, err := filepath.Rel(repoRoot, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return nil, fmt.Errorf("%s is not inside the git repository at %s", root, repoRoot)
	}
	rel = filepath.ToSlash(rel)
	for p := range changed {
		if config.IsConfigName(path.Base(p)) && appliesTo(path.Dir(p), rel) {
			return ps, nil
		}
	}
	// A values file in a chart's directory is read only by the projects
	// that name it (values-prod.yaml is not shop-dev's).
	values := map[string]bool{}
	for _, pr := range ps {
		if pr.Helm != nil {
			for _, v := range pr.Helm.Values {
				values[path.Join(rel, v)] = true
			}
		}
	}
	var out []Project
	for _, pr := range ps {
		if affected(pr, rel, changed, values) {
			out = append(out, pr)
		}
	}
	return out, nil
}

// affected reports whether pr reads a changed file, or a changed path is
// below its directory (or its chart's) that is not a values file another
// project reads.
func affected(pr Project, rootRel string, changed, values map[string]bool) bool {
	for _, f := range pr.Files {
		if changed[path.Join(rootRel, f)] {
			return true
		}
	}
	dirs := []string{path.Join(rootRel, pr.Path)}
	if pr.Helm != nil {
		dirs = append(dirs, path.Join(rootRel, pr.Helm.Chart))
	}
	for p := range changed {
		for _, dir := range dirs {
			if (dir == "." || strings.HasPrefix(p, dir+"/")) && !values[p] {
				return true
			}
		}
	}
	return false
}

// appliesTo reports whether a config in dir (relative to the repository
// root, with "/") is found from root: dir is root or above it.
func appliesTo(dir, root string) bool {
	return dir == "." || dir == root || strings.HasPrefix(root, dir+"/")
}
