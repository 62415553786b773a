package admissiondiff

import (
	"context"
	"github.com/kubeplan/kubeplan/internal/testing/publicdata"
	"os"
	"path/filepath"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
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
	server := serverJudgements(dc, cases)
	if *update {
		if err := os.WriteFile(golden, []byte(formatGolden(cases, server)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	g := readGolden(t)
	for i, pc := range cases {
		if g[pc.Name] != server[i].String() {
			t.Errorf("%s: the API server says %s, %s says %s (run with -update)", pc.Name, server[i], golden, g[pc.Name])
		}
	}
	compareWithLint(t, cases, server)
}

// TestIntegrationLibraryPolicies does the same for the staged public
// library: its policies, the binding its README shows for each, and a
// planted defect of each.
func TestIntegrationLibraryPolicies(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	dc, _ := client(t, c.AdminKubeconfig())
	lib := publicdata.Dir(t, LibrarySub)
	cases, err := LibraryCases(lib)
	if err != nil {
		t.Fatal(err)
	}
	server := serverJudgements(dc, cases)
	for i, pc := range cases {
		if defective := strings.Contains(pc.Name, " with "); server[i].Refused != defective {
			t.Errorf("%s: the API server says %s", pc.Name, server[i])
		}
	}
	compareWithLint(t, cases, server, filepath.Join(lib, LibraryCRDs))
}

// serverJudgements sends each case as a server-side dry-run create with
// strict field validation.
func serverJudgements(dc dynamic.Interface, cases []PolicyCase) []Judgement {
	out := make([]Judgement, len(cases))
	for i, pc := range cases {
		u := &unstructured.Unstructured{Object: pc.Object}
		gvr := schema.GroupVersionResource{Group: "admissionregistration.k8s.io", Version: "v1", Resource: "validatingadmissionpolicies"}
		if pc.Object["kind"] == "ValidatingAdmissionPolicyBinding" {
			gvr.Resource = "validatingadmissionpolicybindings"
		}
		_, err := dc.Resource(gvr).Create(context.Background(), u, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}, FieldValidation: "Strict"})
		out[i] = ServerJudgement(err)
	}
	return out
}

// compareWithLint requires lint, reading the cases with --policies and
// linting them, to judge each as the server did.
func compareWithLint(t *testing.T, cases []PolicyCase, server []Judgement, crds ...string) {
	t.Helper()
	created := 0
	for _, j := range server {
		if !j.Refused {
			created++
		}
	}
	for _, mode := range []LintMode{AsPolicies, AsLinted} {
		js, err := LintJudgements(t.TempDir(), cases, mode, crds...)
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
