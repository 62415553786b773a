package run

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/kubeplan/kubeplan/internal/kubeapi"
	"github.com/kubeplan/kubeplan/lint"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/project"
)

// LintSettings gives the lint input and options of a project (config and
// flags); load fills in what to read and the project's own settings.
type LintSettings func(p project.Project) (lint.Input, lint.Options, error)

// errLint is a project's lint failure; its findings go in the report.
type errLint struct {
	findings []lint.Finding
}

func (e *errLint) Error() string {
	return fmt.Sprintf("lint found %d error(s); nothing was sent to the cluster", len(e.findings))
}

// load lints the project and returns its objects: the kustomization built,
// or its plain manifest files read. namespace is what namespace-mismatch
// checks against ("" for none); lookup is what a chart's lookup reads
// (nil: nothing, as in lint).
func (o *Options) load(p project.Project, namespace string, lookup manifest.HelmLookup) ([]*manifest.Object, error) {
	li, lo, err := o.Lint(p)
	if err != nil {
		return nil, err
	}
	li.Paths = Paths(o.Root, p)
	// The CRDs of the projects it depends on validate its custom
	// resources, selected in this run or not.
	for _, d := range project.Dependencies(o.Known, p) {
		li.CRDPaths = slices.Concat(li.CRDPaths, Paths(o.Root, d))
	}
	li.KeepObjects, lo.Loaded = true, o.Loaded
	lo.Namespace = namespace
	if namespace != "" {
		lo.NamespaceFrom = fmt.Sprintf("the namespace of project %s", p.Name)
	}
	if p.KubeVersion != "" {
		if lo.KubeVersion, err = lint.NormalizeKubeVersion(p.KubeVersion); err != nil {
			return nil, err
		}
	}
	if p.Kind == project.Helm {
		kv := lo.KubeVersion
		if kv == "" {
			kv = kubeapi.KubeVersion
		}
		li.Load.Helm = p.HelmOptions(o.Root, kv)
		li.Load.Helm.Lookup = lookup
		li.Load.Helm.WithholdSecretData = lookup != nil && o.Plan.SecretDataWithheld
	}
	if li.Load.Root == "" {
		// A kustomization may use bases anywhere in its repository, and a
		// chart values files; plain files are read only below the root.
		li.Load.Root = o.Root
		if p.Kind == project.Kustomize || p.Kind == project.Helm {
			if li.Load.Root, err = manifest.DirRoot(o.Root); err != nil {
				return nil, err
			}
		}
	}
	rep, objs, err := lint.Check(li, lo)
	if err != nil {
		return nil, err
	}
	if errs := rep.Errors(); len(errs) > 0 {
		return nil, &errLint{findings: errs}
	}
	return objs, nil
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
