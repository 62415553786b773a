package workspace

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/kubeplan/kubeplan/internal/kubeapi"
	"github.com/kubeplan/kubeplan/lint"
	"github.com/kubeplan/kubeplan/manifest/loader"
	"github.com/kubeplan/kubeplan/project"
)

// ProjectLint is what lint.Check takes for project p, linted for s's
// Namespace ("" for none): the workspace's settings (see Lint), what p
// reads (s.Paths is not read), the CRDs of the projects it depends on
// (selected in this run or not), its own Kubernetes version, its chart's
// Helm options (s's Lookup and Withhold), and the root its files are
// confined to.
//
// The project of a plain invocation (Single) is its paths read as a set.
func (w *Workspace) ProjectLint(p project.Project, s Set) (lint.Input, lint.Options, error) {
	if w.isSingle {
		s.Paths = w.single
		return w.Lint(s)
	}
	li, lo, err := w.projectBase()
	if err != nil {
		return li, lo, err
	}
	root := w.Root()
	li.Paths = Paths(root, p)
	deps, err := w.DependencyPaths(p)
	if err != nil {
		return li, lo, err
	}
	li.CRDPaths = slices.Concat(li.CRDPaths, deps)
	lo.Namespace = s.Namespace
	if s.Namespace != "" {
		lo.NamespaceFrom = fmt.Sprintf("the namespace of project %s", p.Name)
	}
	if p.KubeVersion != "" {
		if lo.KubeVersion, err = lint.NormalizeKubeVersion(p.KubeVersion); err != nil {
			return li, lo, err
		}
	}
	if p.Kind == project.Helm {
		kv := lo.KubeVersion
		if kv == "" {
			kv = kubeapi.KubeVersion
		}
		li.Load.Helm = p.HelmOptions(root, kv)
		li.Load.Helm.Lookup = s.Lookup
		li.Load.Helm.WithholdSecretData = s.Lookup != nil && s.Withhold
	}
	if li.Load.Root == "" {
		// A kustomization may use bases anywhere in its repository, and a
		// chart values files; plain files are read only below the root.
		li.Load.Root = root
		if p.Kind == project.Kustomize || p.Kind == project.Helm {
			if li.Load.Root, err = loader.DirRoot(root); err != nil {
				return li, lo, err
			}
		}
	}
	return li, lo, nil
}

// projectBase is Lint of no paths for no namespace, worked out once (the
// SOPS keys are read once per workspace): what every project starts from.
func (w *Workspace) projectBase() (lint.Input, lint.Options, error) {
	w.baseOnce.Do(func() { w.baseIn, w.baseOpts, w.baseErr = w.Lint(Set{}) })
	li, lo := w.baseIn, w.baseOpts
	li.CRDPaths = slices.Clone(li.CRDPaths)
	return li, lo, w.baseErr
}

// ForLint are the projects ps as lint takes them, and the paths of the
// projects they depend on (their CRDs validate ps's custom resources):
// --kube-version, when given, is the version of them all (their own is
// cleared).
func (w *Workspace) ForLint(ps []project.Project) ([]project.Project, []string, error) {
	if w.o.Overrides.KubeVersion != nil {
		for i := range ps {
			ps[i].KubeVersion = ""
		}
	}
	crds, err := w.DependencyPaths(ps...)
	return ps, crds, err
}

// DependencyPaths are the paths of the projects ps depend on, each once:
// their CRDs validate the custom resources of ps.
func (w *Workspace) DependencyPaths(ps ...project.Project) ([]string, error) {
	all, err := w.Projects()
	if err != nil {
		return nil, err
	}
	var out []string
	seen := map[string]bool{}
	for _, p := range ps {
		for _, d := range project.Dependencies(all, p) {
			for _, path := range Paths(w.Root(), d) {
				if !seen[path] {
					seen[path] = true
					out = append(out, path)
				}
			}
		}
	}
	return out, nil
}

// Paths are what a project reads, below root: its kustomization's
// directory, its chart, or its plain manifest files.
func Paths(root string, p project.Project) []string {
	if p.Kind == project.Helm && p.Helm != nil {
		return []string{p.ChartPath(root)}
	}
	if p.Kind == project.Kustomize {
		return []string{filepath.Join(root, filepath.FromSlash(p.Path))}
	}
	out := make([]string, len(p.Files))
	for i, f := range p.Files {
		out[i] = filepath.Join(root, filepath.FromSlash(f))
	}
	return out
}
