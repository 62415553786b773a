package admissiondiff

import (
	"fmt"
	"testing"

	"github.com/kubeplan/kubeplan/lint/admission"
	"github.com/kubeplan/kubeplan/manifest"
)

// namespacesYAML are the Namespace objects lint sees for the run's
// namespaces, with the labels the test gives them on the cluster.
func namespacesYAML(run, prod, dev string) string {
	return fmt.Sprintf(`apiVersion: v1
kind: Namespace
metadata:
  name: %s
  labels: {admissiondiff-run: %s, env: prod}
---
apiVersion: v1
kind: Namespace
metadata:
  name: %s
  labels: {admissiondiff-run: %s, env: dev}
`, prod, run, dev, run)
}

// offlineSet loads the policies (suffix x, run r, params in ns params)
// and the corpus y as lint would.
func offlineSet(t *testing.T, y, prod, dev string) (*admission.Set, []*manifest.Object) {
	t.Helper()
	return offlineSetFor(t, y, "x", "r", "params", prod, dev)
}

func offlineSetFor(t *testing.T, y, suffix, run, paramNS, prod, dev string) (*admission.Set, []*manifest.Object) {
	t.Helper()
	pol, err := Parse("policies.yaml", Policies(suffix, run, paramNS, dev))
	if err != nil {
		t.Fatal(err)
	}
	nss, err := Parse("namespaces.yaml", namespacesYAML(run, prod, dev))
	if err != nil {
		t.Fatal(err)
	}
	objs, err := Parse("corpus.yaml", y)
	if err != nil {
		t.Fatal(err)
	}
	set, probs := admission.Load(append(append(pol, nss...), objs...), admission.Options{})
	for _, p := range probs {
		t.Errorf("loading the policies: %s:%d:%d: %s", p.File, p.Line, p.Col, p.Message)
	}
	if set.Len() != 12 {
		t.Fatalf("want 12 policies, got %d", set.Len())
	}
	return set, objs
}
