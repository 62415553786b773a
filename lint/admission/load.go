package admission

import (
	"fmt"
	corev1 "k8s.io/api/core/v1"
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
// policy that cannot be read, an unknown paramKind are Problems at their
// file:line:col (rule admission-policy); such a policy judges nothing.
func Load(objs []*manifest.Object, opts Options) (*Set, []*manifest.Problem) {
	s := &Set{opts: opts, bindings: map[string][]binding{}, ns: &namespaces{known: map[string]*corev1.Namespace{}}, params: params{}}
	var probs []*manifest.Problem
	res, err := newResources(opts.KubeVersion, objs)
	if err != nil {
		return nil, []*manifest.Problem{{Rule: Rule, Message: err.Error()}}
	}
	s.res = res
	s.oi = objectInterfaces{equiv: res.equiv}
	s.matcher = matcher{matching.NewMatcher(s.ns, nil)}
	seen := map[string]*manifest.Object{}
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
			p, err := decodePolicy(o)
			if err != nil {
				probs = append(probs, problemAt(o, err.Error()))
				continue
			}
			if pk := p.Spec.ParamKind; pk != nil {
				if _, ok := res.kindKnown(pk.APIVersion, pk.Kind); !ok {
					probs = append(probs, problemAt(o, fmt.Sprintf("ValidatingAdmissionPolicy %s: paramKind %s is not a kind Kubernetes %s serves nor one of a CustomResourceDefinition in the set", p.Name, kindOf(pk.APIVersion, pk.Kind), versionOr(opts.KubeVersion)), "spec", "paramKind"))
				}
			}
			if p.Spec.MatchConstraints == nil {
				probs = append(probs, problemAt(o, fmt.Sprintf("ValidatingAdmissionPolicy %s: spec.matchConstraints is required", p.Name), "spec"))
				continue
			}
			c, cp := compilePolicy(p, o)
			probs = append(probs, cp...)
			if c != nil {
				s.policies = append(s.policies, c)
			}
		case o.APIVersion == group+"/v1" && o.Kind == kindBinding:
			b, err := decodeBinding(o)
			if err != nil {
				probs = append(probs, problemAt(o, err.Error()))
				continue
			}
			if b.Spec.PolicyName == "" {
				probs = append(probs, problemAt(o, fmt.Sprintf("ValidatingAdmissionPolicyBinding %s: spec.policyName is required", b.Name), "spec"))
				continue
			}
			s.bindings[b.Spec.PolicyName] = append(s.bindings[b.Spec.PolicyName], binding{b: b, obj: o})
		}
		s.params.add(o)
	}
	sort.Slice(s.policies, func(i, j int) bool { return s.policies[i].policy.Name < s.policies[j].policy.Name })
	for name, bs := range s.bindings {
		sort.Slice(bs, func(i, j int) bool { return bs[i].b.Name < bs[j].b.Name })
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
