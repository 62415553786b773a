package lint

import (
	"github.com/kubeplan/kubeplan/internal/parallel"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/policies"
)

// RunSources lints sources as a stream: each file is parsed, checked and
// dropped, so memory stays flat however large the repository is. Sources
// that may hold CustomResourceDefinitions are read first, so custom
// resources are validated whatever order the files come in. The result is
// the same as loading everything and calling Run.
func RunSources(srcs []*manifest.Source, opts Options) (Report, error) {
	l, err := newLinter(opts)
	if err != nil {
		return Report{}, err
	}

	// Phase 1: sources that may define CRDs are loaded whole, up front.
	type loaded struct {
		objs  []*manifest.Object
		probs []*manifest.Problem
		ok    bool
	}
	pre := make([]loaded, len(srcs))
	crdObjs := append([]*manifest.Object{}, opts.CRDs...)
	for i, s := range srcs {
		may, err := s.MayHoldCRD()
		if err != nil {
			return Report{}, err
		}
		if !may {
			continue
		}
		objs, probs, err := s.Load()
		if err != nil {
			return Report{}, err
		}
		pre[i] = loaded{objs, probs, true}
		crdObjs = append(crdObjs, objs...)
	}
	var findings []Finding
	l.crds, findings = collectCRDs(crdObjs)

	// Phase 2: every source, in parallel, keeping only findings and slim
	// copies for the set-wide rules.
	type result struct {
		findings []Finding
		slims    []*manifest.Object
		objects  int
		err      error
	}
	results := make([]result, len(srcs))
	parallel.Each(opts.Concurrency, len(srcs), func(i int) {
		objs, probs := pre[i].objs, pre[i].probs
		if !pre[i].ok {
			var err error
			if objs, probs, err = srcs[i].Load(); err != nil {
				results[i].err = err
				return
			}
		}
		pre[i] = loaded{}
		fs, err := l.checkBatch(objs, probs)
		r := result{findings: fs, objects: len(objs), err: err}
		for _, o := range objs {
			r.slims = append(r.slims, o.Slim(IgnoreAnnotation))
		}
		results[i] = r
	})

	rep := Report{Files: len(srcs)}
	var slims []*manifest.Object
	for _, r := range results {
		if r.err != nil {
			return Report{}, r.err
		}
		findings = append(findings, r.findings...)
		slims = append(slims, r.slims...)
		rep.Objects += r.objects
	}
	findings = append(findings, runSetWide(slims, opts)...)
	rep.Findings = applySettings(findings, slims, opts.Rules)
	Sort(rep.Findings)
	return rep, nil
}

// checkBatch makes every per-object finding for the objects of one source.
// Settings are applied later, by the caller, over all findings.
func (l *linter) checkBatch(objs []*manifest.Object, probs []*manifest.Problem) ([]Finding, error) {
	var out []Finding
	for _, p := range probs {
		out = append(out, problemFinding(p))
	}
	for _, o := range objs {
		fs, err := l.checkObject(o)
		if err != nil {
			return nil, err
		}
		out = append(out, fs...)
	}
	out = append(out, runPolicyRules(objs, l.opts, false)...)
	return out, nil
}

// runSetWide runs the rules that need the whole set.
func runSetWide(objs []*manifest.Object, opts Options) []Finding {
	return runPolicyRules(objs, opts, true)
}

// runPolicyRules runs the enabled built-in rules whose SetWide matches.
func runPolicyRules(objs []*manifest.Object, opts Options, setWide bool) []Finding {
	var out []Finding
	for _, r := range policies.All() {
		if r.SetWide != setWide {
			continue
		}
		if s, ok := opts.Rules[r.ID]; ok && s.Off {
			continue
		}
		sev, _ := ParseSeverity(r.Severity)
		for _, v := range r.Check(objs, policies.Options{Namespace: opts.Namespace}) {
			out = append(out, objectFinding(v.Object, v.Path, sev, r.ID, v.Message))
		}
	}
	return out
}
