package lint

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/kubeplan/kubeplan/lint/admission"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/manifest/loader"
)

// vapRun evaluates ValidatingAdmissionPolicies: those of --policies and
// those in the set. While the set streams through lint it keeps only what
// the policies need besides the objects they judge (the policies and
// bindings, the Namespaces, the objects of the paramKinds --policies
// names); the objects are judged in a second stream, read again, only when
// there are policies. Without policies it costs one comparison per object:
// the API server's CEL machinery is never started.
type vapRun struct {
	mu   sync.Mutex
	kept []*manifest.Object
	// crds summarise the CustomResourceDefinitions of the set: with --crds
	// and those of --policies they are the one pool a paramKind is
	// resolved in.
	crds []*manifest.Object
	// fromPolicies are the objects of --policies, which lint does not
	// check itself: admission validates their policies and bindings whole.
	fromPolicies map[*manifest.Object]bool
	kinds        map[string]bool // apiVersion + " " + kind of the params to keep
	// stdin holds the objects read from standard input, which cannot be
	// read twice (at most 64 MiB); stdinName is their File.
	stdin     []*manifest.Object
	stdinName string
}

func (v *vapRun) wrap(next func([]*manifest.Object)) func([]*manifest.Object) {
	return func(objs []*manifest.Object) {
		for _, o := range objs {
			if o.File == v.stdinName {
				v.mu.Lock()
				v.stdin = append(v.stdin, o)
				v.mu.Unlock()
			} else if admission.Context(o) || v.kinds[o.APIVersion+" "+o.Kind] {
				v.mu.Lock()
				v.kept = append(v.kept, o)
				v.mu.Unlock()
			} else if admission.IsCRD(o) {
				sum := admission.CRDSummary(o)
				v.mu.Lock()
				v.crds = append(v.crds, sum)
				v.mu.Unlock()
			}
		}
		if next != nil {
			next(objs)
		}
	}
}

// extra reads --policies (and policies: of kubeplan.yaml) before the set
// is linted, and notes the paramKinds whose objects to keep.
func (v *vapRun) extra(in Input) ([]*manifest.Object, []Finding, error) {
	v.kinds = map[string]bool{}
	v.stdinName = "<stdin>"
	if in.Rename != nil {
		v.stdinName = in.Rename(v.stdinName)
	}
	if len(in.PolicyPaths) == 0 {
		return nil, nil, nil
	}
	res, err := loader.Load(in.PolicyPaths, loader.Options{Concurrency: in.Load.Concurrency, Context: in.Load.Context})
	if err != nil {
		return nil, nil, fmt.Errorf("--policies: %w", err)
	}
	rename(in.Rename, res)
	var fs []Finding
	for _, p := range res.Problems {
		if !p.Info { // a policy test file beside the policies is no news
			fs = append(fs, problemFinding(p))
		}
	}
	for _, k := range admission.ParamKinds(res.Objects) {
		v.kinds[k] = true
	}
	v.fromPolicies = map[*manifest.Object]bool{}
	for _, o := range res.Objects {
		v.fromPolicies[o] = true
	}
	return res.Objects, fs, nil
}

// policyCRDs are the CustomResourceDefinitions among the objects of
// --policies: they validate the set's objects of their kinds (parameter
// objects) as --crds do.
func policyCRDs(extra []*manifest.Object) []*manifest.Object {
	var out []*manifest.Object
	for _, o := range extra {
		if admission.IsCRD(o) {
			out = append(out, o)
		}
	}
	return out
}

// findings judges the set with the policies. objs is the set when Check
// kept it; else the set is read again from paths, as a stream.
func (v *vapRun) findings(in Input, paths []string, extra, objs []*manifest.Object, opts Options) ([]Finding, error) {
	if !admission.HasPolicies(extra) && !admission.HasPolicies(v.kept) && !admission.HasPolicies(v.stdin) && !admission.HasPolicies(objs) {
		return nil, nil
	}
	if len(in.Projects) > 0 {
		paths = nil
		for _, p := range in.Projects {
			paths = append(paths, joinRoot(in.ProjectRoot, p.Path))
		}
	}
	paths = slices.DeleteFunc(slices.Clone(paths), func(p string) bool { return p == "-" })
	context := append(slices.Clone(extra), objs...)
	if objs == nil {
		context = append(append(context, v.kept...), v.stdin...)
		if missing := v.missingKinds(context); len(missing) > 0 {
			params, err := streamObjects(paths, in, opts.Concurrency, func(o *manifest.Object) bool { return missing[o.APIVersion+" "+o.Kind] })
			if err != nil {
				return nil, err
			}
			context = append(context, params...)
		}
	}
	crds := slices.Clone(v.crds)
	for _, o := range opts.CRDs {
		crds = append(crds, admission.CRDSummary(o))
	}
	set, probs := admission.Load(context, admission.Options{KubeVersion: opts.KubeVersion, Namespace: opts.Namespace, CRDs: crds,
		Linted: func(o *manifest.Object) bool { return !v.fromPolicies[o] }})
	var out []Finding
	for _, p := range probs {
		out = append(out, problemFinding(p))
	}
	out = applySettings(out, nil, opts.Rules)
	ctx := in.runContext()
	if objs != nil {
		fs, err := judge(ctx, set, objs)
		if err != nil {
			return nil, err
		}
		return append(out, applySettings(fs, objs, opts.Rules)...), nil
	}
	fs, err := judge(ctx, set, v.stdin)
	if err != nil {
		return nil, err
	}
	out = append(out, applySettings(fs, v.stdin, opts.Rules)...)
	if len(paths) == 0 {
		return out, nil
	}
	var mu sync.Mutex
	var judgeErr error
	_, err = streamObjects(paths, in, opts.Concurrency, func(o *manifest.Object) bool { return false }, func(batch []*manifest.Object) {
		fs, err := judge(ctx, set, batch)
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			judgeErr = cmp.Or(judgeErr, err)
			return
		}
		out = append(out, applySettings(fs, batch, opts.Rules)...)
	})
	return out, cmp.Or(judgeErr, err)
}

// missingKinds are the paramKinds of the policies in context whose objects
// the first stream did not keep.
func (v *vapRun) missingKinds(context []*manifest.Object) map[string]bool {
	missing := map[string]bool{}
	for _, k := range admission.ParamKinds(context) {
		if !v.kinds[k] {
			missing[k] = true
		}
	}
	return missing
}

// streamObjects reads paths again source by source, in parallel, and
// returns the objects keep selects; each batch also goes to the each
// functions, then is dropped.
func streamObjects(paths []string, in Input, concurrency int, keep func(*manifest.Object) bool, each ...func([]*manifest.Object)) ([]*manifest.Object, error) {
	srcs, err := loader.Collect(paths, in.Load)
	if err != nil {
		return nil, err
	}
	return streamSources(srcs, in, concurrency, keep, each...)
}

// streamObjectsIn is streamObjects where the objects keep selects are all
// in files (as Object.File names them): plain files not among them are
// not read. When a file of files is no plain file's (a kustomize or chart
// source, or a name not matched), every source is read, as streamObjects.
func streamObjectsIn(paths []string, in Input, concurrency int, files map[string]bool, keep func(*manifest.Object) bool, each ...func([]*manifest.Object)) ([]*manifest.Object, error) {
	srcs, err := loader.Collect(paths, in.Load)
	if err != nil {
		return nil, err
	}
	name := func(s *loader.Source) string {
		if in.Rename != nil {
			return in.Rename(s.Path())
		}
		return s.Path()
	}
	plain := map[string]bool{}
	for _, s := range srcs {
		if !s.Kustomize() && !s.Chart() {
			plain[name(s)] = true
		}
	}
	for f := range files {
		if !plain[f] {
			return streamSources(srcs, in, concurrency, keep, each...)
		}
	}
	srcs = slices.DeleteFunc(srcs, func(s *loader.Source) bool { return !s.Kustomize() && !s.Chart() && !files[name(s)] })
	return streamSources(srcs, in, concurrency, keep, each...)
}

func streamSources(srcs []*loader.Source, in Input, concurrency int, keep func(*manifest.Object) bool, each ...func([]*manifest.Object)) ([]*manifest.Object, error) {
	var mu sync.Mutex
	var out []*manifest.Object
	var g errgroup.Group
	g.SetLimit(workers(concurrency))
	inFlight := newByteBudget()
	for _, s := range srcs {
		g.Go(func() error {
			defer inFlight.take(s)()
			objs, _, err := s.Load()
			if err != nil {
				return err
			}
			if in.Rename != nil {
				for _, o := range objs {
					o.File = in.Rename(o.File)
				}
			}
			for _, f := range each {
				f(objs)
			}
			mu.Lock()
			defer mu.Unlock()
			for _, o := range objs {
				if keep(o) {
					out = append(out, o)
				}
			}
			return nil
		})
	}
	return out, g.Wait()
}

// judge is the findings of the set's verdicts on objs. It stops with an
// error once ctx (the run's: a signal, a deadline) is done.
func judge(ctx context.Context, set *admission.Set, objs []*manifest.Object) ([]Finding, error) {
	var out []Finding
	for _, o := range objs {
		vds, err := set.CheckContext(ctx, o)
		if err != nil {
			return nil, err
		}
		for _, vd := range vds {
			if f, ok := verdictFinding(o, vd); ok {
				out = append(out, f)
			}
		}
	}
	return out, nil
}

func joinRoot(root, p string) string {
	if root == "" {
		return p
	}
	return strings.TrimSuffix(root, "/") + "/" + p
}

// verdictFinding is the finding a verdict makes, at the field the
// validation's fieldPath names (else the object's start): none for a pass
// or a plain skip.
func verdictFinding(o *manifest.Object, v admission.Verdict) (Finding, bool) {
	who := fmt.Sprintf("ValidatingAdmissionPolicy %s (%s)", v.Policy, v.PolicyFile)
	if v.Binding != "" {
		who += " binding " + v.Binding
	}
	var sev Severity
	var msg string
	switch v.Result {
	case admission.Fail, admission.Error:
		switch v.Action {
		case admission.Deny:
			sev, msg = Error, "denied by "+who+": "+v.Message
		case admission.Warn:
			sev, msg = Warning, "warning from "+who+": "+v.Message
		default:
			sev, msg = Info, "audit failure from "+who+": "+v.Message
		}
	case admission.NotEvaluable:
		sev, msg = Info, who+" is not evaluable offline: "+v.Message
	case admission.Skip:
		if !strings.HasPrefix(v.Message, "error ignored") {
			return Finding{}, false
		}
		sev, msg = Info, who+": "+v.Message
	default:
		return Finding{}, false
	}
	if path := admission.FieldPathOf(v.FieldPath); len(path) > 0 && o.Has(path...) {
		return objectFinding(o, path, sev, admission.Rule, msg), true
	}
	// At the object's start, found without building its position tree.
	start := o.Start()
	return Finding{File: o.File, Line: start.Line, Col: start.Col, Severity: sev, Rule: admission.Rule, Message: msg,
		Object: o.String(), Namespace: o.Namespace}, true
}

// paramFindings checks the parameter objects of --policies (the objects
// there that are not policies, bindings, Namespaces or CRDs) against the
// schemas and the pool of CRDs (--crds, --policies, the set's): a
// parameter the API server would refuse is an error at its field. A
// parameter whose kind has no schema is left alone: its CRD may be on the
// cluster only.
func paramFindings(extra []*manifest.Object, opts Options) ([]Finding, error) {
	var params []*manifest.Object
	for _, o := range extra {
		if !admission.Context(o) && !admission.IsCRD(o) {
			params = append(params, o)
		}
	}
	if len(params) == 0 {
		return nil, nil
	}
	l, err := newLinter(opts)
	if err != nil {
		return nil, err
	}
	if l.crds, err = collectCRDs(opts.CRDs); err != nil {
		return nil, err
	}
	fs, err := l.checkAll(params)
	if err != nil {
		return nil, err
	}
	out := fs[:0]
	for _, f := range fs {
		if f.Rule == "schema" || f.Rule == "crd-schema" {
			out = append(out, f)
		}
	}
	return applySettings(out, params, opts.Rules), nil
}
