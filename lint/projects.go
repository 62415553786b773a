package lint

import (
	"bytes"
	"cmp"
	"fmt"
	"os"
	"path/filepath"

	"github.com/kubeplan/kubeplan/internal/confine"
	"github.com/kubeplan/kubeplan/internal/kubeapi"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/manifest/loader"
	"github.com/kubeplan/kubeplan/project"
)

// group is a set of paths linted together: duplicate-object and the other
// set-wide rules see only its objects.
type group struct {
	paths []string
	load  loader.Options
	// kustomizedCRDs says whether its kustomizations may build a
	// CustomResourceDefinition (a kustomize project's files name one).
	kustomizedCRDs bool
	// project, for a project of Input.Projects, holds its settings: its
	// kubeVersion and namespace, and the cluster duplicates across
	// projects are looked for in.
	project *project.Project
	// chart is true for a Helm chart's group, rendered with load.Helm.
	chart bool
}

// groups splits the paths of a streamed lint. A directory argument that
// holds kustomizations and is not itself one project is linted project by
// project (see package project): each overlay is built on its own, the
// bases it uses and the Components are never built alone, a patch file is
// never read as a manifest, and objects of different projects never
// collide. Every other path (files, "-", a kustomization, a directory of
// plain manifests) is linted together with the others, as before.
func groups(paths []string, load loader.Options) ([]group, error) {
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
		if gs, err = projectGroups(p, ps, load); err != nil {
			return nil, err
		}
		out = append(out, gs...)
	}
	if len(rest.paths) > 0 {
		out = append([]group{rest}, out...)
	}
	return out, nil
}

// projectGroups makes a group of each project under root (their Path and
// Files are relative to it), confined as the walk of root would be:
// kustomizations to the repository holding root, plain files to root.
func projectGroups(root string, ps []project.Project, load loader.Options) ([]group, error) {
	kload, mload := load, load
	if load.Root == "" {
		var err error
		if kload.Root, err = loader.DirRoot(root); err != nil {
			return nil, err
		}
		mload.Root = root
	}
	var out []group
	for _, pr := range ps {
		dir := filepath.Join(root, filepath.FromSlash(pr.Path))
		if pr.Kind == project.Kustomize {
			out = append(out, group{paths: []string{dir}, load: kload, kustomizedCRDs: mentionCRD(root, pr.Files)})
			continue
		}
		if pr.Kind == project.Helm && pr.Helm != nil {
			out = append(out, chartGroup(root, pr, kload))
			continue
		}
		g := group{load: mload}
		for _, f := range pr.Files {
			g.paths = append(g.paths, filepath.Join(root, filepath.FromSlash(f)))
		}
		out = append(out, g)
	}
	return out, nil
}

// loadedGroups makes a group of each loaded project (Input.Projects), with
// its settings.
func loadedGroups(root string, ps []project.Project, load loader.Options) ([]group, error) {
	gs, err := projectGroups(root, ps, load)
	if err != nil {
		return nil, err
	}
	for i := range gs {
		gs[i].project = &ps[i]
	}
	return gs, nil
}

// projectsOf returns the projects of a directory argument to split, or nil
// to lint the path as it is.
func projectsOf(p string, load loader.Options) ([]project.Project, error) {
	if p == "-" {
		return nil, nil
	}
	if fi, err := os.Stat(p); err != nil || !fi.IsDir() {
		return nil, nil // Collect reports an unreadable path
	}
	opts := project.Options{Exclude: load.Exclude}
	if ok, err := project.HasProjects(p, opts); err != nil || !ok {
		return nil, err
	}
	ps, _, err := project.Find(p, opts)
	if err != nil {
		return nil, err
	}
	if len(ps) == 0 || len(ps) == 1 && ps[0].Kind != project.Manifests && ps[0].Path == "." {
		// a kustomization or a chart that is the only project is read as
		// before, and a directory of Components only (named on purpose) too
		return nil, nil
	}
	return ps, nil
}

// runGroups lints each group on its own and merges the reports. A finding
// made in several groups (an error in a base two overlays build) is kept
// once. The CustomResourceDefinitions of every group validate the custom
// resources of all: a crds/ directory serves the overlays.
func runGroups(gs []group, opts Options) (Report, error) {
	srcs := make([][]*loader.Source, len(gs))
	for i, g := range gs {
		if g.chart && g.load.Helm.KubeVersion == "" {
			// a chart's .Capabilities are the version it is linted against
			g.load.Helm.KubeVersion = cmp.Or(g.options(opts).KubeVersion, kubeapi.KubeVersion)
		}
		var err error
		if srcs[i], err = loader.Collect(g.paths, g.load); err != nil {
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
	var seen dedupe // by place, not by object: overlays name a base's object each their way
	keys := make([][]identity, len(gs))
	for i, g := range gs {
		if opts.group != nil {
			opts.group(i)
		}
		r, ids, err := runSourcesKeys(srcs[i], g.options(opts))
		if err != nil {
			return Report{}, err
		}
		keys[i] = ids
		rep.Files += r.Files
		rep.Objects += r.Objects
		for _, f := range r.Findings {
			seen.add(&rep.Findings, f)
		}
	}
	cross, err := crossDuplicates(gs, srcs, keys, opts)
	if err != nil {
		return Report{}, err
	}
	rep.Findings = append(rep.Findings, cross...)
	Sort(rep.Findings)
	return rep, nil
}

// options are opts for the group: a project's kubeVersion when it sets
// one, and its namespace when opts has none (-n wins).
func (g group) options(opts Options) Options {
	if g.project == nil {
		return opts
	}
	if g.project.KubeVersion != "" {
		opts.KubeVersion = g.project.KubeVersion
	}
	if opts.Namespace == "" && g.project.Namespace != "" {
		opts.Namespace = g.project.Namespace
		opts.NamespaceFrom = fmt.Sprintf("the namespace of project %s", g.project.Name)
	}
	return opts
}

// sharedCRDs loads the CustomResourceDefinitions of every group: plain
// files that mention one, and the kustomizations of groups whose files do.
func sharedCRDs(gs []group, srcs [][]*loader.Source) ([]*manifest.Object, error) {
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
// manifest.MaxFileBytes inside the checkout are read (internal/confine);
// the build reports the others.
func mentionCRD(root string, files []string) bool {
	for _, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f))
		fi, err := os.Lstat(p)
		if err != nil || !fi.Mode().IsRegular() || fi.Size() > manifest.MaxFileBytes {
			continue
		}
		if data, err := confine.ReadFile(p, confine.RootFor(p)); err == nil && bytes.Contains(data, []byte("CustomResourceDefinition")) {
			return true
		}
	}
	return false
}

// chartGroup is the group of a helm project under root: its chart,
// rendered with its settings (the kubeVersion is filled in by runGroups).
func chartGroup(root string, pr project.Project, load loader.Options) group {
	load.Helm = pr.HelmOptions(root, "")
	return group{paths: []string{pr.ChartPath(root)}, load: load, chart: true, kustomizedCRDs: !pr.Helm.SkipCRDs}
}
