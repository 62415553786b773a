package admission

import (
	"fmt"
	"sync"

	v1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/admission/plugin/policy/matching"
)

// matcher is the API server's policy matcher (generic.PolicyMatcher of
// k8s.io/apiserver, with its errors) over matching.Matcher, which does
// the rules, namespaceSelector, objectSelector and matchPolicy.
type matcher struct{ m *matching.Matcher }

const errNilSelector = "a nil %s selector was passed, please ensure selectors are initialized properly"

func (c matcher) definitionMatches(a admission.Attributes, o admission.ObjectInterfaces, p *v1.ValidatingAdmissionPolicy) (bool, schema.GroupVersionResource, schema.GroupVersionKind, error) {
	constraints := p.Spec.MatchConstraints
	if constraints == nil {
		return false, schema.GroupVersionResource{}, schema.GroupVersionKind{}, fmt.Errorf("policy contained no match constraints, a required field")
	}
	if constraints.NamespaceSelector == nil {
		return false, schema.GroupVersionResource{}, schema.GroupVersionKind{}, fmt.Errorf(errNilSelector, "namespace")
	}
	if constraints.ObjectSelector == nil {
		return false, schema.GroupVersionResource{}, schema.GroupVersionKind{}, fmt.Errorf(errNilSelector, "object")
	}
	return c.m.Matches(a, o, parsedCriteria(constraints))
}

func (c matcher) bindingMatches(a admission.Attributes, o admission.ObjectInterfaces, b *v1.ValidatingAdmissionPolicyBinding) (bool, error) {
	mr := b.Spec.MatchResources
	if mr == nil {
		return true, nil
	}
	if mr.NamespaceSelector == nil {
		return false, fmt.Errorf(errNilSelector, "namespace")
	}
	if mr.ObjectSelector == nil {
		return false, fmt.Errorf(errNilSelector, "object")
	}
	ok, _, _, err := c.m.Matches(a, o, parsedCriteria(mr))
	return ok, err
}

// criteria are MatchResources with their selectors parsed once: the API
// server parses them at every request, lint judges thousands of objects.
type criteria struct {
	c             *v1.MatchResources
	ns, obj       labels.Selector
	nsErr, objErr error
}

var parsed sync.Map // *v1.MatchResources -> *criteria

func parsedCriteria(m *v1.MatchResources) *criteria {
	if c, ok := parsed.Load(m); ok {
		return c.(*criteria)
	}
	c := &criteria{c: m}
	c.ns, c.nsErr = metav1.LabelSelectorAsSelector(m.NamespaceSelector)
	c.obj, c.objErr = metav1.LabelSelectorAsSelector(m.ObjectSelector)
	v, _ := parsed.LoadOrStore(m, c)
	return v.(*criteria)
}

func (m *criteria) GetParsedNamespaceSelector() (labels.Selector, error) { return m.ns, m.nsErr }

func (m *criteria) GetParsedObjectSelector() (labels.Selector, error) { return m.obj, m.objErr }

func (m *criteria) GetMatchResources() v1.MatchResources { return *m.c }
