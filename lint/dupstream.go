package lint

import (
	"maps"
	"slices"

	"golang.org/x/sync/errgroup"

	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/manifest/loader"
	"github.com/kubeplan/kubeplan/policies"
)

// dupPair is where a duplicate and the first object with its key are:
// source and index in it (the keys are not needed any more).
type dupPair struct{ first, dup objAt }

// objAt is an object's source and index in it.
type objAt struct{ src, obj int32 }

// streamDuplicates runs duplicate-object over the stream's identity records
// without holding the set: for each source holding first copies, it loads
// that source and, one at a time, the sources of their later copies, runs
// the rule on each (first, copy) pair, resolves the findings' positions and
// drops the objects. Memory is one or two sources and the findings, however
// many duplicates there are. The findings are those the rule makes on the
// whole set: the first copy in stream order is the one the others point at.
func streamDuplicates(srcs []*loader.Source, records []identity, opts Options) ([]Finding, error) {
	rule, ok := policies.ByID(duplicateRule)
	if !ok || ruleOff(opts, duplicateRule) {
		return nil, nil
	}
	first := map[string]identity{}
	bySrc := map[int][]dupPair{} // by the first copy's source
	for _, r := range records {
		f, seen := first[r.key]
		if !seen {
			first[r.key] = r
			continue
		}
		bySrc[f.src] = append(bySrc[f.src], dupPair{objAt{int32(f.src), int32(f.obj)}, objAt{int32(r.src), int32(r.obj)}})
	}
	if len(bySrc) == 0 {
		return nil, nil
	}
	popts := policies.Options{Namespace: opts.Namespace, NamespaceFrom: opts.NamespaceFrom}
	order := slices.Sorted(maps.Keys(bySrc))
	results := make([][]Finding, len(order))
	var g errgroup.Group
	g.SetLimit(workers(opts.Concurrency))
	for i, fs := range order {
		g.Go(func() (err error) {
			results[i], err = duplicatesFrom(srcs, fs, bySrc[fs], rule, popts, opts.Rules)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return slices.Concat(results...), nil
}

// duplicatesFrom runs rule on pairs, whose first copies are all in source
// fs, loading each source of later copies once.
func duplicatesFrom(srcs []*loader.Source, fs int, pairs []dupPair, rule policies.Rule, popts policies.Options, settings map[string]RuleSetting) ([]Finding, error) {
	firsts, _, err := srcs[fs].Load()
	if err != nil {
		return nil, err
	}
	sev, _ := ParseSeverity(rule.Severity)
	slices.SortStableFunc(pairs, func(a, b dupPair) int { return int(a.dup.src - b.dup.src) })
	var out []Finding
	for i := 0; i < len(pairs); {
		ds := int(pairs[i].dup.src)
		j := i
		for j < len(pairs) && int(pairs[j].dup.src) == ds {
			j++
		}
		dups := firsts
		if ds != fs {
			if dups, _, err = srcs[ds].Load(); err != nil {
				return nil, err
			}
		}
		var found []Finding
		var objs []*manifest.Object // for the ignore annotations
		for _, p := range pairs[i:j] {
			if int(p.first.obj) >= len(firsts) || int(p.dup.obj) >= len(dups) {
				continue // the source changed since: nothing to compare
			}
			pair := []*manifest.Object{firsts[p.first.obj], dups[p.dup.obj]}
			objs = append(objs, pair...)
			for _, v := range rule.Check(pair, popts) {
				found = append(found, objectFinding(v.Object, v.Path, sev, rule.ID, v.Message))
			}
		}
		out = append(out, applySettings(found, objs, settings)...)
		i = j
	}
	return out, nil
}

// ruleOff reports whether the settings turn the rule id off.
func ruleOff(opts Options, id string) bool {
	s, ok := opts.Rules[id]
	return ok && s.Off
}
