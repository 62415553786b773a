package run

import (
	"fmt"

	"github.com/kubeplan/kubeplan/lint"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/manifest/helm"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/workspace"
)

// LintError is a project's lint failure; its findings go in the report.
type LintError struct {
	// Report is lint's report, with only its error findings.
	Report lint.Report
}

func (e *LintError) Error() string {
	return fmt.Sprintf("lint found %d error(s); nothing was sent to the cluster", len(e.Report.Findings))
}

// load lints the project and returns its objects: the kustomization built,
// or its plain manifest files read, with the settings the workspace gives
// it (workspace.ProjectLint). namespace is what namespace-mismatch checks
// against ("" for none); lookup is what a chart's lookup reads (nil:
// nothing, as in lint); live reads the labels of a live Namespace
// (lint.Options.LiveNamespaceLabels; nil: none is read).
func (o *Options) load(p project.Project, namespace string, lookup helm.Lookup, live func(string) (map[string]string, bool)) ([]*manifest.Object, error) {
	li, lo, err := o.Workspace.ProjectLint(p, workspace.Set{Namespace: namespace, Lookup: lookup, Withhold: o.Plan.SecretDataWithheld})
	if err != nil {
		return nil, err
	}
	li.KeepObjects = true
	lo.LiveNamespaceLabels = live
	if o.Observer != nil {
		lo.Loaded = o.Observer.Loaded
	}
	rep, objs, err := lint.Check(li, lo)
	if err != nil {
		return nil, err
	}
	if errs := rep.Errors(); len(errs) > 0 {
		rep.Findings = errs
		return nil, &LintError{Report: rep}
	}
	if err := checkHealthCRDs(o.Workspace, objs, li.CRDPaths); err != nil {
		return nil, err
	}
	return objs, nil
}
