package lint

import (
	"context"
	"fmt"

	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/manifest/loader"
	"github.com/kubeplan/kubeplan/project"
)

// Input says what Check reads.
type Input struct {
	// Paths are files, directories (recursive), kustomization directories
	// and "-" for Load.Stdin; empty means the current directory, unless
	// Projects are given.
	Paths []string
	// Load says how to read them (exclude globs, stdin, concurrency).
	Load loader.Options
	// CRDPaths are files or directories of extra CustomResourceDefinitions
	// (--crds): they validate custom resources and are not linted
	// themselves, but a file among them that cannot be read as objects is
	// reported as findings like any other.
	CRDPaths []string
	// PolicyPaths are files or directories of ValidatingAdmissionPolicies,
	// bindings and parameter objects (--policies): they judge the set
	// together with the policies in it, and are not linted themselves.
	PolicyPaths []string
	// KeepObjects keeps the loaded objects for the caller (plan and apply
	// need them). Without it the set is linted as a stream: each file is
	// parsed, checked and dropped, so memory stays flat.
	KeepObjects bool
	// Rename, when set, maps file names before anything is reported (plan
	// of a git source shows names relative to the checkout).
	Rename func(string) string
	// Projects, when not nil, are linted (project.Load made them; their
	// paths are relative to ProjectRoot), each on its own: with its
	// KubeVersion when it sets one, its Namespace when Options.Namespace
	// is "", and duplicate-object between two of them only when both apply
	// to one cluster and namespace. Paths, when given, are linted beside
	// them as they would be alone (the paths no project covers, see
	// project.ForPaths). Not with KeepObjects.
	Projects    []project.Project
	ProjectRoot string
}

// Check is the one lint entry point, for kubeplan lint, plan, apply, the
// benchmarks and the demo: it reads in, lints it with opts and returns the
// report, and the objects when in.KeepObjects. Findings are data; the error
// says lint itself could not run (an unreadable path, a bad option).
func Check(in Input, opts Options) (Report, []*manifest.Object, error) {
	paths := in.Paths
	if len(paths) == 0 && in.Projects == nil {
		paths = []string{"."}
	}
	var crdFindings []Finding
	if len(in.CRDPaths) > 0 {
		crds, err := loader.Load(in.CRDPaths, loader.Options{Concurrency: in.Load.Concurrency, Context: in.Load.Context})
		if err != nil {
			return Report{}, nil, fmt.Errorf("--crds: %w", err)
		}
		rename(in.Rename, crds)
		opts.CRDs = append(opts.CRDs, crds.Objects...)
		for _, p := range crds.Problems {
			crdFindings = append(crdFindings, problemFinding(p))
		}
	}
	var listed *objectList
	if opts.ListObjects {
		listed = &objectList{}
		opts.Loaded = listed.wrap(opts.Loaded)
	}
	refs := newRefCollector(opts.Namespace)
	opts.Loaded = refs.wrap(opts.Loaded)
	order := &orderCollector{}
	opts.Loaded = order.wrap(opts.Loaded)
	opts.group = order.setGroup
	vap := &vapRun{}
	extraPolicies, policyFindings, err := vap.extra(in)
	if err != nil {
		return Report{}, nil, err
	}
	opts.CRDs = append(opts.CRDs, policyCRDs(extraPolicies)...)
	params, err := paramFindings(extraPolicies, opts)
	if err != nil {
		return Report{}, nil, err
	}
	policyFindings = append(policyFindings, params...)
	opts.Loaded = vap.wrap(opts.Loaded)
	psa := newPodSecurityRun(in, opts)
	opts.Loaded = psa.wrap(opts.Loaded)
	var rep Report
	var objs []*manifest.Object
	if in.KeepObjects {
		res, err := loader.Load(paths, in.Load)
		if err != nil {
			return Report{}, nil, err
		}
		rename(in.Rename, res)
		if rep, err = run(res, opts); err != nil {
			return Report{}, nil, err
		}
		objs = res.Objects
	} else {
		var gs []group
		var err error
		if in.Projects != nil {
			gs, err = loadedGroups(in.ProjectRoot, in.Projects, in.Load)
		}
		if err == nil && len(paths) > 0 {
			var more []group
			more, err = groups(paths, in.Load)
			gs = append(gs, more...)
		}
		if err != nil {
			return Report{}, nil, err
		}
		if rep, err = runGroups(gs, opts); err != nil {
			return Report{}, nil, err
		}
	}
	if ctx := in.runContext(); ctx.Err() != nil {
		return Report{}, nil, fmt.Errorf("lint stopped: %w", context.Cause(ctx))
	}
	vin, vpaths := in.withProjectPaths(paths)
	vapFindings, err := vap.findings(vin, vpaths, extraPolicies, objs, opts)
	if err != nil {
		return Report{}, nil, err
	}
	vapFindings = append(vapFindings, applySettings(policyFindings, nil, opts.Rules)...)
	psaFindings, err := psa.findings(vin, vpaths, objs, opts)
	if err != nil {
		return Report{}, nil, err
	}
	vapFindings = append(vapFindings, psaFindings...)
	if len(vapFindings) > 0 {
		rep.Findings = append(rep.Findings, vapFindings...)
		Sort(rep.Findings)
	}
	refFindings := append(refs.findings(), order.findings()...)
	if len(crdFindings) > 0 || len(refFindings) > 0 {
		rep.Findings = append(rep.Findings, applySettings(append(crdFindings, refFindings...), nil, opts.Rules)...)
		Sort(rep.Findings)
	}
	rep.Findings = Dedupe(rep.Findings)
	hideDecrypted(rep.Findings)
	if listed != nil {
		rep.Linted = listed.list()
	}
	return rep, objs, nil
}

// withProjectPaths is in with its Projects named as paths beside paths,
// for the policies' second stream over the set (vapRun.findings).
func (in Input) withProjectPaths(paths []string) (Input, []string) {
	if len(in.Projects) == 0 {
		return in, paths
	}
	var out []string
	for _, p := range in.Projects {
		out = append(out, joinRoot(in.ProjectRoot, p.Path))
	}
	in.Projects = nil
	return in, append(out, paths...)
}

// runContext is the run's context, Load.Context (context.Background when
// not set): loading, linting and policy evaluation stop once it is done.
func (in Input) runContext() context.Context {
	if in.Load.Context == nil {
		return context.Background()
	}
	return in.Load.Context
}

// Errors returns the report's error-level findings.
func (r Report) Errors() []Finding {
	var out []Finding
	for _, f := range r.Findings {
		if f.Severity == Error {
			out = append(out, f)
		}
	}
	return out
}

func rename(f func(string) string, res *loader.Result) {
	if f == nil {
		return
	}
	for _, o := range res.Objects {
		o.File = f(o.File)
	}
	for _, p := range res.Problems {
		p.File = f(p.File)
	}
}
