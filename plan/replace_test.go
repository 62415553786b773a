package plan

import (
	"errors"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// invalid is the 422 the apiserver answers, with one cause per field.
func invalid(causes ...metav1.StatusCause) error {
	return &apierrors.StatusError{ErrStatus: metav1.Status{Status: metav1.StatusFailure, Code: 422, Reason: metav1.StatusReasonInvalid,
		Details: &metav1.StatusDetails{Causes: causes}}}
}

func TestImmutableReason(t *testing.T) {
	selector := metav1.StatusCause{Type: metav1.CauseTypeFieldValueInvalid, Field: "spec.selector", Message: `Invalid value: {"matchLabels":{"app":"x"}}: field is immutable`}
	clusterIP := metav1.StatusCause{Type: metav1.CauseTypeFieldValueInvalid, Field: "spec.clusterIPs[0]", Message: `Invalid value: ["10.0.0.78"]: may not change once set`}
	pvc := metav1.StatusCause{Type: metav1.CauseType("FieldValueForbidden"), Field: "spec", Message: "Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims"}
	bad := metav1.StatusCause{Type: metav1.CauseTypeFieldValueInvalid, Field: "spec.replicas", Message: "Invalid value: -1: must be greater than or equal to 0"}
	for _, tc := range []struct {
		err  error
		want string
		ok   bool
	}{
		{invalid(selector), "spec.selector is immutable", true},
		{invalid(clusterIP), "spec.clusterIPs[0] is immutable", true},
		{invalid(pvc), "spec is immutable", true},
		{invalid(selector, clusterIP, selector), "spec.selector, spec.clusterIPs[0] are immutable", true},
		{invalid(selector, bad), "", false}, // also invalid otherwise: replacing would not help
		{invalid(), "", false},
		{apierrors.NewConflict(schema.GroupResource{Group: "apps", Resource: "deployments"}, "web", errors.New("x")), "", false},
		{errors.New("field is immutable"), "", false},
	} {
		got, ok := immutableReason(tc.err)
		if got != tc.want || ok != tc.ok {
			t.Errorf("immutableReason(%v) = %q, %v; want %q, %v", tc.err, got, ok, tc.want, tc.ok)
		}
	}
}

func TestReplacementNeverForDataKinds(t *testing.T) {
	live := &unstructured.Unstructured{Object: map[string]any{"kind": "X", "spec": map[string]any{"a": int64(1)}}}
	want := &unstructured.Unstructured{Object: map[string]any{"kind": "X", "spec": map[string]any{"a": int64(2)}}}
	c, err := replacement(Change{Ref: Ref{Group: "apps", Kind: "Deployment", Name: "web"}}, live, want, "spec.selector is immutable", "kubeplan")
	if err != nil || c.Action != Replace || c.Reason != "spec.selector is immutable" || !strings.Contains(c.Diff, "-  a: 1\n+  a: 2") {
		t.Errorf("deployment: %+v, %v", c, err)
	}
	for _, r := range []Ref{{Kind: "PersistentVolumeClaim"}, {Kind: "Namespace"}, {Group: "apiextensions.k8s.io", Kind: "CustomResourceDefinition"}} {
		_, err := replacement(Change{Ref: r}, live, want, "spec is immutable", "kubeplan")
		if err == nil || !strings.Contains(err.Error(), "spec is immutable") || !strings.Contains(err.Error(), "never replaces a "+r.Kind) || !strings.Contains(err.Error(), "delete") {
			t.Errorf("%s: err = %v, want a refusal saying why", r.Kind, err)
		}
	}
}

func TestSummaryReplace(t *testing.T) {
	p := &Plan{Changes: []Change{{Action: Replace}, {Action: Unchanged}}}
	if got := p.Summary().String(); got != "Plan: 0 to add, 0 to change, 1 to replace, 0 to prune, 1 unchanged." {
		t.Errorf("summary = %q", got)
	}
	if !p.HasChanges() {
		t.Error("a replace is a change")
	}
	p.Changes = p.Changes[1:]
	if got := p.Summary().String(); got != "Plan: 0 to add, 0 to change, 0 to prune, 1 unchanged." || p.HasChanges() {
		t.Errorf("without replace: %q", got)
	}
}
