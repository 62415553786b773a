package admission

import (
	"fmt"
	corev1 "k8s.io/api/core/v1"
	"slices"
	"sort"

	v1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apiserver/pkg/admission/plugin/policy/matching"

	"github.com/kubeplan/kubeplan/manifest"
)

// Rule is the lint rule id of admission policy findings and problems.
const Rule = "admission-policy"

// Options control Load.
type Options struct {
	// KubeVersion is the Kubernetes minor whose resources the policies'
	// rules are matched against ("" is the newest kubeplan knows).
	KubeVersion string
	// Namespace is where objects without metadata.namespace are created
	// (lint's --namespace), "" when not known.
	Namespace string
	// CRDs are more CustomResourceDefinitions whose kinds are known
	// (--crds, and those of the linted set that objs lacks): a policy's
	// paramKind may be one of them. Summary keeps what this needs of one.
	CRDs []*manifest.Object
	// Linted, when set, reports whether lint's schema check reads o: then
	// the unknown fields and wrong types of a policy or binding o are left
	// to it (they still keep o out of evaluation).
	Linted func(o *manifest.Object) bool
}

// Set is the compiled policies and bindings of a set of objects, with the
// Namespaces and parameter objects they are evaluated with.
type Set struct {
	opts     Options
	policies []*compiled
	bindings map[string][]binding // by policy name
	ns       *namespaces
	params   params
	res      *resources
	matcher  matcher
	oi       objectInterfaces
}

type binding struct {
	b   *v1.ValidatingAdmissionPolicyBinding
	obj *manifest.Object
}

// Load collects policies, bindings, params and Namespaces from objs (any
// order) and compiles them. A policy that does not compile, a binding or
// policy the API server would refuse to create (validate.go: unknown
// fields, wrong types, missing or invalid fields, reserved names,
// expressions that do not compile), an unknown paramKind are Problems at
// their file:line:col (rule admission-policy); a refused policy judges
// nothing, and its bindings are skipped with an info naming it.
func Load(objs []*manifest.Object, opts Options) (*Set, []*manifest.Problem) {
	s := &Set{opts: opts, bindings: map[string][]binding{}, ns: &namespaces{known: map[string]*corev1.Namespace{}}, params: params{}}
	var probs []*manifest.Problem
	res, err := newResources(opts.KubeVersion, append(slices.Clone(opts.CRDs), objs...))
	if err != nil {
		return nil, []*manifest.Problem{{Rule: Rule, Message: err.Error()}}
	}
	s.res = res
	s.oi = objectInterfaces{equiv: res.equiv}
	s.matcher = matcher{matching.NewMatcher(s.ns, nil)}
	seen := map[string]*manifest.Object{}
	refused := map[string]*manifest.Object{} // policies the API server would not create
	for _, o := range objs {
		switch {
		case o.APIVersion == "v1" && o.Kind == "Namespace":
			if err := s.ns.add(o); err != nil {
				probs = append(probs, problemAt(o, err.Error()))
			}
		case o.APIVersion == group+"/v1" && o.Kind == kindPolicy:
			if prev, dup := seen[o.Name]; dup {
				probs = append(probs, problemAt(o, fmt.Sprintf("ValidatingAdmissionPolicy %s is also defined at %s:%d", o.Name, prev.File, prev.Start().Line), "metadata", "name"))
				continue
			}
			seen[o.Name] = o
			p, ref := readPolicy(o)
			if p != nil {
				// The API server compiles the expressions of a policy it
				// refuses for other reasons too, and says what fails.
				if cp := compileProblems(p, o); len(cp) > 0 {
					if ref == nil {
						ref = &refusal{} // the compile problems say why
					}
					probs = append(probs, cp...)
				}
			}
			if ref != nil {
				refused[o.Name] = o
				probs = append(probs, s.refusalProblems(o, ref)...)
				continue
			}
			if pk := p.Spec.ParamKind; pk != nil {
				if _, ok := res.kindKnown(pk.APIVersion, pk.Kind); !ok {
					probs = append(probs, problemAt(o, fmt.Sprintf("ValidatingAdmissionPolicy %s: paramKind %s is not a kind Kubernetes %s serves nor one of a CustomResourceDefinition in the set, --crds or --policies", p.Name, kindOf(pk.APIVersion, pk.Kind), versionOr(opts.KubeVersion)), "spec", "paramKind"))
				}
			}
			c, cp := compilePolicy(p, o)
			probs = append(probs, cp...)
			if c != nil {
				s.policies = append(s.policies, c)
			}
		case o.APIVersion == group+"/v1" && o.Kind == kindBinding:
			b, ref := readBinding(o)
			if ref != nil {
				probs = append(probs, s.refusalProblems(o, ref)...)
				continue
			}
			s.bindings[b.Spec.PolicyName] = append(s.bindings[b.Spec.PolicyName], binding{b: b, obj: o})
		}
		s.params.add(o)
	}
	sort.Slice(s.policies, func(i, j int) bool { return s.policies[i].policy.Name < s.policies[j].policy.Name })
	for name, bs := range s.bindings {
		sort.Slice(bs, func(i, j int) bool { return bs[i].b.Name < bs[j].b.Name })
		if p := refused[name]; p != nil {
			for _, b := range bs {
				probs = append(probs, &manifest.Problem{File: b.obj.File, Pos: b.obj.Start(), Rule: Rule, Info: true,
					Message: fmt.Sprintf("ValidatingAdmissionPolicyBinding %s is not evaluated: it binds ValidatingAdmissionPolicy %s, which the API server refuses (%s:%d)", b.b.Name, name, p.File, p.Start().Line)})
			}
			delete(s.bindings, name)
			continue
		}
		if seen[name] == nil {
			for _, b := range bs {
				p := problemAt(b.obj, fmt.Sprintf("ValidatingAdmissionPolicyBinding %s binds ValidatingAdmissionPolicy %s, which is not among the policies", b.b.Name, name), "spec", "policyName")
				p.Info = true
				probs = append(probs, p)
			}
		}
	}
	return s, probs
}

// Len is how many policies the set judges with.
func (s *Set) Len() int { return len(s.policies) }

func versionOr(v string) string {
	if v == "" {
		return "1.37"
	}
	return v
}

// refusalProblems are the problems of a refused policy or binding, but
// for the schema errors lint reports itself.
func (s *Set) refusalProblems(o *manifest.Object, r *refusal) []*manifest.Problem {
	if r.schema && s.opts.Linted != nil && s.opts.Linted(o) {
		return nil
	}
	return refusalProblems(o, r)
}
