package main

import (
	"testing"

	"github.com/kubeplan/kubeplan/lint/admission"
	"github.com/kubeplan/kubeplan/manifest"
)

// The generated policies all compile: the benchmark measures 50 of them.
func TestPoliciesCompile(t *testing.T) {
	objs, probs := manifest.Parse("policies.yaml", []byte(policies(50)))
	if len(probs) > 0 {
		t.Fatal(probs[0])
	}
	set, ps := admission.Load(objs, admission.Options{})
	for _, p := range ps {
		t.Errorf("%d:%d: %s", p.Line, p.Col, p.Message)
	}
	if set.Len() != 50 {
		t.Errorf("%d policies compiled, want 50", set.Len())
	}
}
