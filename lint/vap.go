package lint

import (
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/kubeplan/kubeplan/lint/admission"
	"github.com/kubeplan/kubeplan/manifest"
)

// vapRun notices ValidatingAdmissionPolicies among the objects as they are
// loaded, and evaluates them (with those of --policies) once the set is
// known. Without policies it costs one comparison per object: the API
// server's CEL machinery is never started.
type vapRun struct{ seen atomic.Bool }

func (v *vapRun) wrap(next func([]*manifest.Object)) func([]*manifest.Object) {
	return func(objs []*manifest.Object) {
		if !v.seen.Load() && admission.HasPolicies(objs) {
			v.seen.Store(true)
		}
		if next != nil {
			next(objs)
		}
	}
}

// findings evaluates the policies: those of in.PolicyPaths and those in
// the set. objs is the set when Check kept it; a streamed set is read
// again (only when there are policies).
func (v *vapRun) findings(in Input, paths []string, objs []*manifest.Object, opts Options) ([]Finding, error) {
	var out []Finding
	var extra []*manifest.Object
	if len(in.PolicyPaths) > 0 {
		res, err := manifest.Load(in.PolicyPaths, manifest.Options{Concurrency: in.Load.Concurrency})
		if err != nil {
			return nil, fmt.Errorf("--policies: %w", err)
		}
		rename(in.Rename, res)
		extra = res.Objects
		for _, p := range res.Problems {
			out = append(out, problemFinding(p))
		}
	}
	if !v.seen.Load() && !admission.HasPolicies(extra) {
		return out, nil
	}
	if objs == nil {
		if len(in.Projects) > 0 {
			paths = nil
			for _, p := range in.Projects {
				paths = append(paths, joinRoot(in.ProjectRoot, p.Path))
			}
		}
		res, err := manifest.Load(paths, in.Load)
		if err != nil {
			return nil, err
		}
		rename(in.Rename, res)
		objs = res.Objects
	}
	set, probs := admission.Load(append(extra, objs...), admission.Options{KubeVersion: opts.KubeVersion, Namespace: opts.Namespace})
	for _, p := range probs {
		out = append(out, problemFinding(p))
	}
	var perObject []Finding
	for _, o := range objs {
		for _, vd := range set.Check(o) {
			if f, ok := verdictFinding(o, vd); ok {
				perObject = append(perObject, f)
			}
		}
	}
	return applySettings(append(out, perObject...), objs, opts.Rules), nil
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
	path := admission.FieldPathOf(v.FieldPath)
	if !o.Has(path...) {
		path = nil
	}
	return objectFinding(o, path, sev, admission.Rule, msg), true
}
