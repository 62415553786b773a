package admission

import (
	"encoding/json"
	"fmt"

	v1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeplan/kubeplan/manifest"
)

// The kinds this package reads.
const (
	group       = "admissionregistration.k8s.io"
	kindPolicy  = "ValidatingAdmissionPolicy"
	kindBinding = "ValidatingAdmissionPolicyBinding"
)

// isPolicyKind reports whether o is a ValidatingAdmissionPolicy or a
// binding of one, in admissionregistration.k8s.io/v1.
func isPolicyKind(o *manifest.Object) bool {
	return o.APIVersion == group+"/v1" && (o.Kind == kindPolicy || o.Kind == kindBinding)
}

// HasPolicies reports whether objs hold a ValidatingAdmissionPolicy or a
// binding: lint loads this package's machinery only then.
func HasPolicies(objs []*manifest.Object) bool {
	for _, o := range objs {
		if isPolicyKind(o) {
			return true
		}
	}
	return false
}

// Context reports whether o is what judging needs besides the objects
// judged: a policy, a binding or a Namespace.
func Context(o *manifest.Object) bool {
	return isPolicyKind(o) || (o.APIVersion == "v1" && o.Kind == "Namespace")
}

// ParamKinds lists the paramKinds of the policies among objs, as
// "apiVersion kind".
func ParamKinds(objs []*manifest.Object) []string {
	var out []string
	for _, o := range objs {
		if o.APIVersion == group+"/v1" && o.Kind == kindPolicy {
			if av, k := o.GetString("spec", "paramKind", "apiVersion"), o.GetString("spec", "paramKind", "kind"); k != "" {
				out = append(out, av+" "+k)
			}
		}
	}
	return out
}

// decode turns o's content into v, through JSON as the API server reads it.
func decode(o *manifest.Object, v any) error {
	b, err := json.Marshal(o.Content)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("reading %s %s: %w", o.Kind, o.Name, err)
	}
	return nil
}

// defaultMatch sets what the API server defaults in MatchResources:
// empty selectors, matchPolicy Equivalent, scope "*".
func defaultMatch(m *v1.MatchResources) {
	if m == nil {
		return
	}
	if m.NamespaceSelector == nil {
		m.NamespaceSelector = &metav1.LabelSelector{}
	}
	if m.ObjectSelector == nil {
		m.ObjectSelector = &metav1.LabelSelector{}
	}
	if m.MatchPolicy == nil {
		e := v1.Equivalent
		m.MatchPolicy = &e
	}
	for _, rules := range [][]v1.NamedRuleWithOperations{m.ResourceRules, m.ExcludeResourceRules} {
		for i := range rules {
			if rules[i].Scope == nil {
				s := v1.AllScopes
				rules[i].Scope = &s
			}
		}
	}
}
