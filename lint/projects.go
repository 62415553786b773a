package lint

import (
	"bytes"
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
	// kustomizedCRDs says whether its kustomizations may build a
	// CustomResourceDefinition (a kustomize project's files name one).
	kustomizedCRDs bool
}

// groups splits the paths of a streamed lint. A directory argument that
// holds kustomizations and is not itself one project is linted project by
// project (see package project): each overlay is built on its own, the
// bases it uses and the Components are never built alone, a patch file is
// never read as a manifest, and objects of different projects never
// collide. Every other path (files, "-", a kustomization, a directory of
// plain manifests) is linted together with the others, as before.
func groups(paths []string, load manifest.Options) ([]group, error) {
	rest := group{load: load, kustomizedCRDs: true}
	var out []group
	readers := &fileProjects{load: load, seen: map[string]bool{}, found: map[string][]project.Project{}}
	for _, p := range paths {
		gs, err := readers.of(p)
		if err != nil {
			return nil, err
		}
		if gs != nil {
			out = append(out, gs...)
			continue
		}
		ps, err := projectsOf(p, load)
		if err != nil {
			return nil, err
		}
		if ps == nil {
			rest.paths = append(rest.paths, p)
			continue
		}
		// Confine each project as the walk of p would: kustomizations to
		// the repository holding p, plain files to p.
		kload, mload := load, load
		if load.Root == "" {
			if kload.Root, err = manifest.DirRoot(p); err != nil {
				return nil, err
			}
			mload.Root = p
		}
		for _, pr := range ps {
			dir := filepath.Join(p, filepath.FromSlash(pr.Path))
			if pr.Kind == project.Kustomize {
				out = append(out, group{paths: []string{dir}, load: kload, kustomizedCRDs: mentionCRD(p, pr.Files)})
				continue
			}
			g := group{load: mload}
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
	if len(ps) == 0 || len(ps) == 1 && ps[0].Kind == project.Kustomize && ps[0].Path == "." {
		// a kustomization that is the only project is built as before, and
		// a directory of Components only (named on purpose) too
		return nil, nil
	}
	return ps, nil
}

// runGroups lints each group on its own and merges the reports. A finding
// made in several groups (an error in a base two overlays build) is kept
// once. The CustomResourceDefinitions of every group validate the custom
// resources of all: a crds/ directory serves the overlays.
func runGroups(gs []group, opts Options) (Report, error) {
	srcs := make([][]*manifest.Source, len(gs))
	for i, g := range gs {
		var err error
		if srcs[i], err = manifest.Collect(g.paths, g.load); err != nil {
			return Report{}, err
		}
	}
	if len(gs) > 1 {
		shared, err := sharedCRDs(gs, srcs)
		if err != nil {
			return Report{}, err
		}
		opts.CRDs = append(opts.CRDs[:len(opts.CRDs):len(opts.CRDs)], shared...)
	}
	var rep Report
	seen := map[Finding]bool{}
	for i := range gs {
		r, err := runSources(srcs[i], opts)
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

// sharedCRDs loads the CustomResourceDefinitions of every group: plain
// files that mention one, and the kustomizations of groups whose files do.
func sharedCRDs(gs []group, srcs [][]*manifest.Source) ([]*manifest.Object, error) {
	var out []*manifest.Object
	for i, g := range gs {
		for _, s := range srcs[i] {
			if s.Kustomize() && !g.kustomizedCRDs {
				continue
			}
			may, err := s.MayHoldCRD()
			if err != nil || !may {
				continue // the group's own lint reports an unreadable file
			}
			objs, _, err := s.Load()
			if err != nil {
				continue
			}
			for _, o := range objs {
				if o.Kind == "CustomResourceDefinition" {
					out = append(out, o)
				}
			}
		}
	}
	return out, nil
}

// mentionCRD reports whether one of a project's files (relative to root)
// mentions a CustomResourceDefinition. Only regular files of at most
// manifest.MaxFileBytes are read; the build reports the others.
func mentionCRD(root string, files []string) bool {
	for _, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f))
		fi, err := os.Lstat(p)
		if err != nil || !fi.Mode().IsRegular() || fi.Size() > manifest.MaxFileBytes {
			continue
		}
		if data, err := os.ReadFile(p); err == nil && bytes.Contains(data, []byte("CustomResourceDefinition")) {
			return true
		}
	}
	return false
}
