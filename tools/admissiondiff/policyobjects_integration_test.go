package admissiondiff

import (
	"context"
	"os"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeplan/kubeplan/tools/testkube"
)

// TestIntegrationPolicyObjects sends every policy and binding of the
// corpus to the API server as a server-side dry-run create with strict
// field validation (what kubectl and kubeplan's apply send), and requires
// lint to judge each the same, read with --policies and linted as the
// set: created or refused, and for a refusal the same field paths. It
// also holds testdata/policyobjects.golden, which the offline test uses,
// to the server (-update rewrites it).
func TestIntegrationPolicyObjects(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	dc, _ := client(t, c.AdminKubeconfig())
	cases, err := PolicyObjects()
	if err != nil {
		t.Fatal(err)
	}
	server := make([]Judgement, len(cases))
	for i, pc := range cases {
		u := &unstructured.Unstructured{Object: pc.Object}
		gvr := schema.GroupVersionResource{Group: "admissionregistration.k8s.io", Version: "v1", Resource: "validatingadmissionpolicies"}
		if pc.Object["kind"] == "ValidatingAdmissionPolicyBinding" {
			gvr.Resource = "validatingadmissionpolicybindings"
		}
		_, err := dc.Resource(gvr).Create(context.Background(), u, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}, FieldValidation: "Strict"})
		server[i] = ServerJudgement(err)
	}
	if *update {
		if err := os.WriteFile(golden, []byte(formatGolden(cases, server)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	g := readGolden(t)
	created := 0
	for i, pc := range cases {
		if g[pc.Name] != server[i].String() {
			t.Errorf("%s: the API server says %s, %s says %s (run with -update)", pc.Name, server[i], golden, g[pc.Name])
		}
		if !server[i].Refused {
			created++
		}
	}
	for _, mode := range []LintMode{AsPolicies, AsLinted} {
		js, err := LintJudgements(t.TempDir(), cases, mode)
		if err != nil {
			t.Fatal(err)
		}
		agree := 0
		for i, pc := range cases {
			if d := disagreement(server[i].String(), js[i], mode); d != "" {
				t.Errorf("mode %d, %s: %s", mode, pc.Name, d)
				continue
			}
			agree++
		}
		t.Logf("mode %d: lint and the API server agree on %d of %d policy objects (%d created, %d refused)", mode, agree, len(cases), created, len(cases)-created)
	}
}
