package project

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// At returns the project whose directory is dir, which must be root or
// below it: a Helm chart, a kustomization that is not a Component, or a directory of
// plain manifests outside every kustomization's reach. Its Path, Files and
// Name are made as Discover makes them, from the same graph, relative to
// root; dir need not be a project Discover finds (a base that overlays use
// is one when declared). Anything else is an error saying why dir is no
// project.
func At(root, dir string, opts Options) (Project, error) {
	root, dir = filepath.Clean(root), filepath.Clean(dir)
	if !inTree(root, dir) {
		return Project{}, fmt.Errorf("%s is outside %s", dir, root)
	}
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return Project{}, errors.New("no such directory")
	case err != nil:
		return Project{}, err
	case !fi.IsDir():
		return Project{}, errors.New("not a directory")
	}
	g := newGraph(root)
	var p Project
	if isChart(dir) {
		p = helmProject(root, dir, dir)
	} else if kustomizationFile(dir) != "" {
		if g.node(dir).component {
			return Project{}, errors.New("a kustomize Component is built only by the kustomizations that use it, never alone")
		}
		g.resolve(dir)
		p = Project{Path: g.rel(dir), Kind: Kustomize, Files: g.closure(dir)}
	} else if p, err = manifestsAt(dir, g, opts); err != nil {
		return Project{}, err
	}
	p.Name = DefaultName(root, p.Path)
	return p, nil
}

// manifestsAt is the plain manifests project of dir, which holds no
// kustomization: the manifest files below it that no kustomization reaches
// (one in a subdirectory reaches its own tree).
func manifestsAt(dir string, g *graph, opts Options) (Project, error) {
	t, err := walk(dir, opts.Exclude)
	if err != nil {
		return Project{}, err
	}
	for _, k := range t.kdirs {
		g.node(k)
	}
	for _, k := range t.kdirs {
		g.resolve(k)
	}
	var files []string
	for _, p := range manifestProjects(dir, t, g) {
		files = append(files, p.Files...)
	}
	if len(files) == 0 {
		return Project{}, errors.New("holds no kustomization and no Kubernetes manifest that a kustomization does not read")
	}
	slices.Sort(files)
	return Project{Path: g.rel(dir), Kind: Manifests, Files: files}, nil
}
