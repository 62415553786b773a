package lint

import (
	"context"
	"os"

	"golang.org/x/sync/errgroup"
	"golang.org/x/sync/semaphore"

	"github.com/kubeplan/kubeplan/internal/hpa"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/manifest/loader"
	"github.com/kubeplan/kubeplan/policies"
)

// runSources lints sources as a stream: each file is parsed, checked and
// dropped, so memory stays flat however large the repository is. Sources
// that may hold CustomResourceDefinitions are read first, so custom
// resources are validated whatever order the files come in. The result is
// the same as loading everything and calling Run.
func runSources(srcs []*loader.Source, opts Options) (Report, error) {
	rep, _, err := runSourcesKeys(srcs, opts)
	return rep, err
}

// runSourcesKeys is runSources that also returns the identity of every
// named object, for checks across groups (crossDuplicates).
func runSourcesKeys(srcs []*loader.Source, opts Options) (Report, []identity, error) {
	l, err := newLinter(opts)
	if err != nil {
		return Report{}, nil, err
	}

	// Phase 1: sources that may define CRDs are read first, in parallel;
	// of their CRDs only compressed schemas are kept (crdSet), compiled
	// when a custom resource needs them. Files are read again in phase 2
	// rather than held meanwhile; kustomize and chart sources,
	// costly to make again, are kept until phase 2, which takes them first.
	type loaded struct {
		objs  []*manifest.Object
		probs []*manifest.Problem
		ok    bool
	}
	pre := make([]loaded, len(srcs))
	for _, o := range opts.CRDs {
		if err := l.crds.add(o, crdRef{obj: o}); err != nil {
			return Report{}, nil, err
		}
	}
	// A source read in phase 1 none of whose objects is a custom resource
	// (the CRD files of a rendered repository) is checked there and then:
	// nothing in it needs the set's CRDs, and it is not read again.
	type result struct {
		findings []Finding
		records  []identity
		objects  int
		err      error
	}
	results := make([]result, len(srcs))
	checkLoaded := func(i int, objs []*manifest.Object, probs []*manifest.Problem) {
		if opts.Loaded != nil {
			opts.Loaded(objs)
		}
		fs, err := l.checkBatch(objs, probs)
		r := result{findings: applySettings(fs, objs, opts.Rules), objects: len(objs), err: err}
		for j, o := range objs {
			if o.HasName() {
				scales, autoscaler := scaleKey(o, opts.Namespace)
				r.records = append(r.records, identity{key: setKey(o, opts.Namespace), scales: scales, autoscaler: autoscaler, src: i, obj: j})
			}
		}
		results[i] = r
	}
	drafts := make([][]crdDraft, len(srcs))
	kept := make([]bool, len(srcs))
	done := make([]bool, len(srcs))
	var p1 errgroup.Group
	p1.SetLimit(workers(opts.Concurrency))
	inFlight := newByteBudget()
	for i, s := range srcs {
		p1.Go(func() error {
			may, err := s.MayHoldCRD()
			if err != nil || !may {
				return err
			}
			defer inFlight.take(s)()
			objs, probs, err := s.Load()
			if err != nil {
				return err
			}
			for j, o := range objs {
				ds, err := crdDrafts(o, crdRef{src: i, idx: j})
				if err != nil {
					return err
				}
				drafts[i] = append(drafts[i], ds...)
			}
			if !l.needsCRDs(objs) {
				checkLoaded(i, objs, probs)
				done[i] = true
			} else if s.Kustomize() || s.Chart() {
				pre[i], kept[i] = loaded{objs, probs, true}, true
			}
			return nil
		})
	}
	if err := p1.Wait(); err != nil {
		return Report{}, nil, err
	}
	var first, rest []int // phase 2's order: the kept sources first, to drop them early
	for i := range srcs {
		l.crds.merge(drafts[i])
		if done[i] {
			continue
		}
		if kept[i] {
			first = append(first, i)
		} else {
			rest = append(rest, i)
		}
	}
	drafts = nil
	var findings []Finding

	// Phase 2: every other source, in parallel, keeping only findings and,
	// for the set-wide rules, a small record of each object's identity.
	checkSource := func(i int) {
		objs, probs := pre[i].objs, pre[i].probs
		if !pre[i].ok {
			var err error
			if objs, probs, err = srcs[i].Load(); err != nil {
				results[i].err = err
				return
			}
		}
		pre[i] = loaded{}
		checkLoaded(i, objs, probs)
	}
	var g errgroup.Group
	g.SetLimit(workers(opts.Concurrency))
	for _, i := range append(first, rest...) {
		g.Go(func() error {
			checkSource(i)
			return nil
		})
	}
	_ = g.Wait()
	crdFindings, err := l.crds.schemaFindings(func(i int) ([]*manifest.Object, error) {
		objs, _, err := srcs[i].Load()
		return objs, err
	})
	if err != nil {
		return Report{}, nil, err
	}
	findings = append(findings, applySettings(crdFindings, nil, opts.Rules)...)

	rep := Report{Files: len(srcs)}
	var records []identity
	for _, r := range results {
		if r.err != nil {
			return Report{}, nil, r.err
		}
		findings = append(findings, r.findings...)
		records = append(records, r.records...)
		rep.Objects += r.objects
	}
	setWide, err := setWideFindings(srcs, records, opts)
	if err != nil {
		return Report{}, nil, err
	}
	rep.Findings = append(findings, setWide...)
	Sort(rep.Findings)
	return rep, records, nil
}

// readBytes bounds the YAML a streaming pass parses at once (phase 1 here,
// and the passes that read files again, streamSources): the parsed objects
// of a file of CRDs take about 7 times its size (24 MiB for kserve's 3.3
// MiB of CRDs), and rendered platforms put a component's CRDs in one file,
// so two such files read side by side would double the run's peak memory.
const readBytes = 4 << 20

// byteBudget is readBytes shared by the workers of a pass.
type byteBudget struct{ sem *semaphore.Weighted }

func newByteBudget() byteBudget { return byteBudget{semaphore.NewWeighted(readBytes)} }

// take waits until s can be parsed within the budget and returns what
// gives it back. A plain file weighs its size, at most readBytes (a larger
// one is read alone); other sources weigh nothing.
func (b byteBudget) take(s *loader.Source) (release func()) {
	var w int64
	if !s.Kustomize() && !s.Chart() && s.Path() != "-" {
		if fi, err := os.Stat(s.Path()); err == nil { // else Load reports it
			w = min(fi.Size(), readBytes)
		}
	}
	_ = b.sem.Acquire(context.Background(), w) // fails only on a done context
	return func() { b.sem.Release(w) }
}

// needsCRDs reports whether checking objs needs the set's CRDs: whether
// one of them is a custom resource (checkAPI's apiCustom), validated
// against a CRD that may be in another source.
func (l *linter) needsCRDs(objs []*manifest.Object) bool {
	for _, o := range objs {
		if v, _ := l.checkAPI(o); v == apiCustom {
			return true
		}
	}
	return false
}

// identity is what the stream keeps of an object for the set-wide rules:
// its key, and where to load it from again.
type identity struct {
	key string
	// scales is, for an autoscaler, the workload it targets and, for a
	// workload that sets spec.replicas, the workload itself: hpa-replicas
	// needs both of a pair.
	scales     string
	autoscaler bool
	src, obj   int
}

// setKey is the key under which an object could collide with another.
func setKey(o *manifest.Object, namespace string) string {
	ns := o.Namespace
	if ns == "" {
		ns = namespace
	}
	return o.Group() + "/" + o.Kind + "/" + ns + "/" + o.Name
}

// setWideFindings runs the set-wide rules: duplicate-object over the
// records (streamDuplicates), and the others over the autoscalers and the
// workloads setting replicas they scale, which alone are loaded again. A
// clean set of any size costs nothing here.
func setWideFindings(srcs []*loader.Source, records []identity, opts Options) ([]Finding, error) {
	out, err := streamDuplicates(srcs, records, opts)
	if err != nil {
		return nil, err
	}
	pairs := map[string][2]bool{} // workload -> has autoscaler, has workload
	for _, r := range records {
		if r.scales != "" {
			p := pairs[r.scales]
			if r.autoscaler {
				p[0] = true
			} else {
				p[1] = true
			}
			pairs[r.scales] = p
		}
	}
	var group []identity
	for _, r := range records {
		if r.scales != "" && pairs[r.scales] == [2]bool{true, true} {
			group = append(group, r)
		}
	}
	if len(group) == 0 {
		return out, nil
	}
	loaded := map[int][]*manifest.Object{}
	var objs []*manifest.Object
	for _, r := range group {
		if _, ok := loaded[r.src]; !ok {
			o, _, err := srcs[r.src].Load()
			if err != nil {
				return nil, err
			}
			loaded[r.src] = o
		}
		if r.obj < len(loaded[r.src]) {
			objs = append(objs, loaded[r.src][r.obj])
		}
	}
	return append(out, applySettings(runSetWide(objs, opts, duplicateRule), objs, opts.Rules)...), nil
}

// scaleKey is the workload an autoscaler targets, or the workload itself
// when it sets spec.replicas; "" for other objects.
func scaleKey(o *manifest.Object, namespace string) (key string, autoscaler bool) {
	ns := o.Namespace
	if ns == "" {
		ns = namespace
	}
	switch {
	case hpa.IsAutoscaler(o.APIVersion, o.Kind):
		if w, ok := hpa.Target(o.Content, ns); ok {
			return w.Kind + "/" + w.Namespace + "/" + w.Name, true
		}
	case hpa.Scalable(o.APIVersion, o.Kind) && hasReplicas(o):
		return o.Kind + "/" + ns + "/" + o.Name, false
	}
	return "", false
}

// hasReplicas reads the content, not the source tree, so that objects the
// fast decoder read are not parsed again for positions.
func hasReplicas(o *manifest.Object) bool {
	_, ok := o.Get("spec", "replicas")
	return ok
}

// checkBatch makes every per-object finding for the objects of one source.
// Settings are applied later, by the caller, over all findings.
func (l *linter) checkBatch(objs []*manifest.Object, probs []*manifest.Problem) ([]Finding, error) {
	var out []Finding
	for _, p := range probs {
		out = append(out, problemFinding(p))
	}
	if len(objs) >= parallelBatch {
		fs, err := l.checkAll(objs)
		if err != nil {
			return nil, err
		}
		out = append(out, fs...)
	} else {
		for _, o := range objs {
			fs, err := l.checkObject(o)
			if err != nil {
				return nil, err
			}
			out = append(out, fs...)
		}
	}
	out = append(out, runPolicyRules(objs, l.opts, false)...)
	return out, nil
}

// parallelBatch is the size from which a batch's objects are checked in
// parallel (checkAll): a chart is one source, so one batch, and a chart
// with subcharts and CRDs renders hundreds of objects (bench-helm's
// kube-prometheus-stack: 132, most of its lint compiling and checking
// against the CRDs its custom resources need).
const parallelBatch = 32

// runSetWide runs the rules that need the whole set, but the except one.
func runSetWide(objs []*manifest.Object, opts Options, except string) []Finding {
	var out []Finding
	for _, r := range policies.All() {
		if r.SetWide && r.ID != except && !ruleOff(opts, r.ID) {
			out = append(out, runRule(r, objs, opts)...)
		}
	}
	return out
}

// runPolicyRules runs the enabled built-in rules whose SetWide matches.
func runPolicyRules(objs []*manifest.Object, opts Options, setWide bool) []Finding {
	var out []Finding
	for _, r := range policies.All() {
		if r.SetWide != setWide {
			continue
		}
		if ruleOff(opts, r.ID) {
			continue
		}
		out = append(out, runRule(r, objs, opts)...)
	}
	return out
}

// runRule runs one built-in rule over objs.
func runRule(r policies.Rule, objs []*manifest.Object, opts Options) []Finding {
	sev, _ := ParseSeverity(r.Severity)
	var out []Finding
	for _, v := range r.Check(objs, policies.Options{Namespace: opts.Namespace, NamespaceFrom: opts.NamespaceFrom}) {
		out = append(out, objectFinding(v.Object, v.Path, sev, r.ID, v.Message))
	}
	return out
}
