package lint

import (
	"os"
	"path/filepath"

	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/project"
)

// group is a set of paths linted together: duplicate-object and the other
// set-wide rules see only its objects.
type group struct {
	paths []string
	load  manifest.Options
}

// groups splits the paths of a streamed lint. A directory argument that
// holds kustomizations and is not itself one project is linted project by
// project (see package project): each overlay is built on its own, the
// bases it uses and the Components are never built alone, a patch file is
// never read as a manifest, and objects of different projects never
// collide. Every other path (files, "-", a kustomization, a directory of
// plain manifests) is linted together with the others, as before.
func groups(paths []string, load manifest.Options) ([]group, error) {
	rest := group{load: load}
	var out []group
	for _, p := range paths {
		ps, err := projectsOf(p, load)
		if err != nil {
			return nil, err
		}
		if ps == nil {
			rest.paths = append(rest.paths, p)
			continue
		}
		for _, pr := range ps {
			dir := filepath.Join(p, filepath.FromSlash(pr.Path))
			if pr.Kind == project.Kustomize {
				out = append(out, group{paths: []string{dir}, load: load})
				continue
			}
			g := group{load: load}
			if g.load.Root == "" {
				// the files stay confined to the directory named, as a walk of it
				if g.load.Root, err = filepath.EvalSymlinks(p); err != nil {
					return nil, err
				}
			}
			for _, f := range pr.Files {
				g.paths = append(g.paths, filepath.Join(p, filepath.FromSlash(f)))
			}
			out = append(out, g)
		}
	}
	if len(rest.paths) > 0 {
		out = append([]group{rest}, out...)
	}
	return out, nil
}

// projectsOf returns the projects of a directory argument to split, or nil
// to lint the path as it is.
func projectsOf(p string, load manifest.Options) ([]project.Project, error) {
	if p == "-" {
		return nil, nil
	}
	if fi, err := os.Stat(p); err != nil || !fi.IsDir() {
		return nil, nil // Collect reports an unreadable path
	}
	opts := project.Options{Exclude: load.Exclude}
	if ok, err := project.HasKustomization(p, opts); err != nil || !ok {
		return nil, err
	}
	ps, _, err := project.Find(p, opts)
	if err != nil {
		return nil, err
	}
	if len(ps) == 1 && ps[0].Kind == project.Kustomize && ps[0].Path == "." {
		return nil, nil // a kustomization that is the only project: built as before
	}
	return ps, nil
}

// runGroups lints each group on its own and merges the reports. A finding
// made in several groups (an error in a base two overlays build) is kept
// once.
func runGroups(gs []group, opts Options) (Report, error) {
	var rep Report
	seen := map[Finding]bool{}
	for _, g := range gs {
		srcs, err := manifest.Collect(g.paths, g.load)
		if err != nil {
			return Report{}, err
		}
		r, err := runSources(srcs, opts)
		if err != nil {
			return Report{}, err
		}
		rep.Files += r.Files
		rep.Objects += r.Objects
		for _, f := range r.Findings {
			if !seen[f] {
				seen[f] = true
				rep.Findings = append(rep.Findings, f)
			}
		}
	}
	Sort(rep.Findings)
	return rep, nil
}
