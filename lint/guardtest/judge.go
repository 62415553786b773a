package guardtest

import (
	"fmt"
	"strings"

	"github.com/kubeplan/kubeplan/internal/guard"
	"github.com/kubeplan/kubeplan/lint/admission"
)

// runFile runs one test file's cases, adding them and its problems to rep.
func runFile(file, root string, rep *admission.TestReport) {
	t, doc, prob := readTest(file, root)
	if prob != nil {
		rep.Problems = append(rep.Problems, prob)
		return
	}
	cfg, probs := loadConfig(file, root, t, doc)
	if len(probs) > 0 {
		rep.Problems = append(rep.Problems, probs...)
		return
	}
	set, err := guard.Compile(cfg)
	if err != nil {
		rep.Problems = append(rep.Problems, problems(file, err)...)
		return
	}
	for _, c := range t.Cases {
		p, changes := inputs(c)
		got, err := set.Evaluate(p, changes)
		if err != nil {
			rep.Cases = append(rep.Cases, admission.CaseResult{File: file, TestResult: admission.TestResult{
				Policy: "rules", Resource: fmt.Sprintf("%q", c.Name), Result: "verdicts", Line: c.Line},
				Got: "error", Mismatch: err.Error()})
			continue
		}
		rep.Cases = append(rep.Cases, judge(file, c, got)...)
	}
}

// inputs are the plan and changes of a case, what it leaves out filled in.
func inputs(c Case) (guard.Plan, []guard.Change) {
	tp := c.Plan
	p := guard.Plan{Project: tp.Project, Cluster: tp.Cluster, Namespace: tp.Namespace, ApplySet: tp.ApplySet,
		Counts: tp.Counts, Kinds: tp.Kinds, Members: tp.Members}
	changes := make([]guard.Change, len(c.Changes))
	counts := map[string]int64{}
	for a := range actions {
		counts[a] = 0
	}
	kinds := map[string]map[string]int64{}
	for i, tc := range c.Changes {
		ch := guard.Change{Action: tc.Action, Group: tc.Group, Version: tc.Version, Kind: tc.Kind, Namespace: tc.Namespace,
			Name: tc.Name, Project: tc.Project, Cluster: tc.Cluster, Paths: tc.Paths, Before: tc.Before, After: tc.After,
			Object: tc.Object, Files: tc.Files}
		if ch.Project == "" {
			ch.Project = p.Project
		}
		if ch.Cluster == "" {
			ch.Cluster = p.Cluster
		}
		if ch.Object == "" {
			ch.Object = objectName(ch.Group, ch.Kind, ch.Name)
		}
		if ch.Version == "" && ch.Group == "" {
			ch.Version = "v1"
		}
		changes[i] = ch
		counts[ch.Action]++
		if kinds[ch.Kind] == nil {
			kinds[ch.Kind] = map[string]int64{}
		}
		kinds[ch.Kind][ch.Action]++
	}
	// counts given win over those counted, action by action, so every
	// action stays present as in a real plan
	for a, n := range p.Counts {
		counts[a] = n
	}
	p.Counts = counts
	if p.Kinds == nil {
		p.Kinds = kinds
	}
	switch {
	case tp.PrunedFraction != nil:
		p.PrunedFraction = *tp.PrunedFraction
	case p.Members > 0:
		p.PrunedFraction = float64(p.Counts["prune"]) / float64(p.Members)
	}
	return p, changes
}

// objectName is how a plan names an object: kind.group/name, the kind in
// lower case (kube.Ref.String).
func objectName(group, kind, name string) string {
	k := strings.ToLower(kind)
	if group != "" {
		k += "." + group
	}
	return k + "/" + name
}

// judge compares a case's verdicts with those expected, in any order: a
// row for each expected verdict (held, missing, or with another outcome
// or message) and one for each verdict not expected.
func judge(file string, c Case, got []guard.Verdict) []admission.CaseResult {
	var out []admission.CaseResult
	used := make([]bool, len(got))
	for _, e := range c.Verdicts {
		r := admission.CaseResult{File: file, TestResult: admission.TestResult{
			Policy: e.Rule, Resource: resource(e.Object), Result: string(e.Outcome), Message: e.Message, Line: e.Line}}
		i := find(got, used, e)
		if i < 0 {
			r.Got = "none"
			r.Mismatch = fmt.Sprintf("want %s, got no verdict", e.Outcome)
			out = append(out, r)
			continue
		}
		used[i] = true
		v := got[i]
		r.Got, r.GotMessage = string(v.Outcome), v.Message
		switch {
		case v.Outcome != e.Outcome:
			r.Mismatch = fmt.Sprintf("want %s, got %s: %s", e.Outcome, v.Outcome, v.Message)
		case e.Message != "" && e.Message != v.Message:
			r.Mismatch = fmt.Sprintf("want message %q, got %q", e.Message, v.Message)
		}
		out = append(out, r)
	}
	for i, v := range got {
		if used[i] {
			continue
		}
		out = append(out, admission.CaseResult{File: file, TestResult: admission.TestResult{
			Policy: v.Rule, Resource: resource(v.Object), Result: "none", Line: c.Line},
			Got: string(v.Outcome), GotMessage: v.Message,
			Mismatch: fmt.Sprintf("unexpected verdict %s: %s", v.Outcome, v.Message)})
	}
	if len(c.Verdicts) == 0 && len(got) == 0 {
		out = append(out, admission.CaseResult{File: file, TestResult: admission.TestResult{
			Policy: "no rule", Resource: fmt.Sprintf("%q", c.Name), Result: "none", Line: c.Line}, Got: "none"})
	}
	return out
}

// find is the first verdict not used yet of e's rule and object: of its
// outcome and message when one is, else any.
func find(got []guard.Verdict, used []bool, e Expected) int {
	best := -1
	for i, v := range got {
		if used[i] || v.Rule != e.Rule || v.Object != e.Object {
			continue
		}
		if v.Outcome == e.Outcome && (e.Message == "" || e.Message == v.Message) {
			return i
		}
		if best < 0 {
			best = i
		}
	}
	return best
}

// resource names a verdict's object in the report; a plan rule's is the
// plan.
func resource(object string) string {
	if object == "" {
		return "plan"
	}
	return object
}
