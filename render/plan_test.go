package render

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/plan"
)

// Secret values that the fixture's Object holds in the clear; no output may
// contain them.
var planSecrets = []string{"hunter2", "aHVudGVyMg=="}

const webDiff = `--- live
+++ planned
@@ -5,7 +5,7 @@
 spec:
-  replicas: 6
+  replicas: 3
   selector:
@@ -14,5 +14,5 @@
       containers:
       - name: web
-        image: ghcr.io/acme/web:1.4.1
+        image: ghcr.io/acme/web:1.4.2
`

const secretDiff = `--- /dev/null
+++ planned
@@ -0,0 +1,8 @@
+apiVersion: v1
+kind: Secret
+metadata:
+  name: db-credentials
+  namespace: store
+type: Opaque
+data:
+  password: '***'
`

const crdDiff = `--- /dev/null
+++ planned
@@ -0,0 +1,6 @@
+apiVersion: apiextensions.k8s.io/v1
+kind: CustomResourceDefinition
+metadata:
+  name: widgets.example.com
+spec:
+  group: example.com
`

const apiDiff = `--- live
+++ planned
@@ -5,5 +5,5 @@
 spec:
-  clusterIP: 10.0.0.12
+  clusterIP: 10.0.0.99
   ports:
`

// readmeDiff has a markdown fence of its own and a table pipe.
const readmeDiff = "--- live\n+++ planned\n@@ -3,3 +3,6 @@\n data:\n   README.md: |\n     # Store\n" +
	"+    ```sh\n+    kubectl -n store get pods | grep web\n+    ```\n"

// planFixture is a realistic mix, deliberately out of order: creates (a
// CRD, a Secret whose Object holds its value in the clear, a custom resource
// created after its CRD), updates with diffs and drift, a replace (one drift value
// with characters markdown must escape and a terminal escape), a prune, and
// unchanged objects, one in another namespace.
func planFixture() *plan.Plan {
	return &plan.Plan{
		Version:      plan.FormatVersion,
		Namespace:    "store",
		FieldManager: "kubeplan",
		Revision:     "3f2c1e0",
		Parent: &plan.Parent{
			Ref: plan.Ref{Version: "v1", Kind: "ConfigMap", Resource: "configmaps", Namespace: "store", Name: "gitops-applyset"},
			ID:  "applyset-Ql2JAaLpbBV1ZVdT2nNyyF3ij4cm6Jk0JWBFaxKn27A-v1", Exists: true, ResourceVersion: "4711",
		},
		Changes: []plan.Change{
			{Ref: plan.Ref{Version: "v1", Kind: "Service", Resource: "services", Namespace: "store", Name: "web"},
				Action: plan.Unchanged, Source: plan.Source{File: "manifests/service.yaml", Line: 1, Col: 1}, LiveResourceVersion: "812"},
			{Ref: plan.Ref{Group: "apps", Version: "v1", Kind: "Deployment", Resource: "deployments", Namespace: "store", Name: "web"},
				Action: plan.Update, Source: plan.Source{File: "manifests/deployment.yaml", Line: 1, Col: 1}, Diff: webDiff,
				Drift:               []plan.Drift{{Field: "spec.replicas", Live: "6", Want: "3", Manager: "kubectl-scale"}},
				LiveResourceVersion: "901", Object: map[string]any{"kind": "Deployment"}},
			{Ref: plan.Ref{Version: "v1", Kind: "Secret", Resource: "secrets", Namespace: "store", Name: "db-credentials"},
				Action: plan.Create, Source: plan.Source{File: "manifests/secret.yaml", Line: 1, Col: 1}, Diff: secretDiff,
				Object: map[string]any{"apiVersion": "v1", "kind": "Secret",
					"stringData": map[string]any{"password": "hunter2"}, "data": map[string]any{"token": "aHVudGVyMg=="}}},
			{Ref: plan.Ref{Version: "v1", Kind: "ConfigMap", Resource: "configmaps", Namespace: "store", Name: "settings"},
				Action: plan.Prune, LiveResourceVersion: "77"},
			{Ref: plan.Ref{Group: "example.com", Version: "v1", Kind: "Widget", Resource: "widgets", Namespace: "store", Name: "w1"},
				Action: plan.Create, Source: plan.Source{File: "manifests/widget.yaml", Line: 9, Col: 1}, AfterCRD: true, WaitsFor: plan.WaitsForCRD},
			{Ref: plan.Ref{Version: "v1", Kind: "ServiceAccount", Resource: "serviceaccounts", Namespace: "other", Name: "deployer"},
				Action: plan.Unchanged, Source: plan.Source{File: "manifests/rbac.yaml", Line: 1, Col: 1}},
			{Ref: plan.Ref{Version: "v1", Kind: "ConfigMap", Resource: "configmaps", Namespace: "store", Name: "readme"},
				Action: plan.Update, Source: plan.Source{File: "manifests/readme.yaml", Line: 1, Col: 1}, Diff: readmeDiff,
				Drift: []plan.Drift{{Field: "data.motd", Live: "a|b `c` <d> \x1b[31mred", Want: "hello", Manager: "kubectl-edit"}}},
			{Ref: plan.Ref{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition",
				Resource: "customresourcedefinitions", Name: "widgets.example.com"},
				Action: plan.Create, Source: plan.Source{File: "manifests/crd.yaml", Line: 1, Col: 1}, Diff: crdDiff},
			{Ref: plan.Ref{Version: "v1", Kind: "Service", Resource: "services", Namespace: "store", Name: "api"},
				Action: plan.Replace, Reason: "spec.clusterIPs[0] is immutable", Source: plan.Source{File: "manifests/api.yaml", Line: 1, Col: 1},
				Diff: apiDiff, LiveResourceVersion: "55", Object: map[string]any{"kind": "Service"}},
			{Ref: plan.Ref{Version: "v1", Kind: "ConfigMap", Resource: "configmaps", Namespace: "store", Name: "nginx-conf"},
				Action: plan.Unchanged, Source: plan.Source{File: "manifests/nginx.yaml", Line: 1, Col: 1}},
		},
	}
}

// noChangePlan has only unchanged objects.
func noChangePlan() *plan.Plan {
	p := planFixture()
	p.Changes = slices.DeleteFunc(p.Changes, func(c plan.Change) bool { return c.Action != plan.Unchanged })
	return p
}

// emptyPlan has no objects at all.
func emptyPlan() *plan.Plan {
	return &plan.Plan{Version: plan.FormatVersion, Namespace: "store", FieldManager: "kubeplan"}
}

// bigPlan has n updates with diffs of about diffBytes each, in reverse order.
func bigPlan(n, diffBytes int) *plan.Plan {
	p := &plan.Plan{Version: plan.FormatVersion, Namespace: "store"}
	line := "+  key: " + strings.Repeat("é", 30) + "\n"
	body := "--- live\n+++ planned\n@@ -1,1 +1,1 @@\n" + strings.Repeat(line, diffBytes/len(line)+1)
	for i := n; i > 0; i-- {
		name := fmt.Sprintf("cm-%05d", i)
		p.Changes = append(p.Changes, plan.Change{
			Ref:    plan.Ref{Version: "v1", Kind: "ConfigMap", Namespace: "store", Name: name},
			Action: plan.Update, Source: plan.Source{File: "manifests/" + name + ".yaml", Line: 1, Col: 1},
			Diff: body, Drift: []plan.Drift{{Field: "data.key", Live: "x", Want: "y", Manager: "kubectl-edit"}},
			Object: map[string]any{"data": map[string]any{"password": "hunter2"}},
		})
	}
	return p
}

// renderPlan renders p in format and fails the test on error.
func renderPlan(t *testing.T, format string, p *plan.Plan, opts PlanOptions) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Plan(&b, format, p, opts); err != nil {
		t.Fatalf("Plan(%s): %v", format, err)
	}
	return b.Bytes()
}

func TestPlanFormats(t *testing.T) {
	want := []string{"text", "markdown", "json"}
	if got := PlanFormats(); !slices.Equal(got, want) {
		t.Fatalf("PlanFormats() = %v, want %v", got, want)
	}
	for _, format := range want {
		for _, mk := range []func() *plan.Plan{planFixture, noChangePlan, emptyPlan} {
			p := mk()
			a := renderPlan(t, format, p, PlanOptions{})
			if b := renderPlan(t, format, p, PlanOptions{}); !bytes.Equal(a, b) {
				t.Errorf("%s: output not deterministic", format)
			}
			if !reflect.DeepEqual(p, mk()) {
				t.Errorf("%s: renderer changed the plan", format)
			}
			// The order of the input does not matter.
			slices.Reverse(p.Changes)
			if b := renderPlan(t, format, p, PlanOptions{}); !bytes.Equal(a, b) {
				t.Errorf("%s: output depends on the order of the changes", format)
			}
			if len(a) == 0 || a[len(a)-1] != '\n' {
				t.Errorf("%s: output does not end in a newline", format)
			}
		}
	}
}

func TestPlanUnknownFormat(t *testing.T) {
	var b bytes.Buffer
	err := Plan(&b, "yaml", planFixture(), PlanOptions{})
	if err == nil {
		t.Fatal("Plan(yaml) succeeded")
	}
	for _, f := range append(PlanFormats(), `"yaml"`) {
		if !strings.Contains(err.Error(), f) {
			t.Errorf("error %q does not mention %s", err, f)
		}
	}
	if b.Len() != 0 {
		t.Errorf("wrote %q for an unknown format", b.String())
	}
	if err := Plan(&b, "text", nil, PlanOptions{}); err == nil || b.Len() != 0 {
		t.Errorf("nil plan: err = %v, wrote %q", err, b.String())
	}
}

func TestPlanOrder(t *testing.T) {
	var got []string
	for _, c := range sortedChanges(planFixture()) {
		got = append(got, string(c.Action)+" "+c.Ref.String()+" "+c.Ref.Namespace)
	}
	want := []string{
		"create customresourcedefinition.apiextensions.k8s.io/widgets.example.com ",
		"create secret/db-credentials store",
		"create widget.example.com/w1 store",
		"update configmap/readme store",
		"update deployment.apps/web store",
		"replace service/api store",
		"prune configmap/settings store",
		"unchanged configmap/nginx-conf store",
		"unchanged service/web store",
		"unchanged serviceaccount/deployer other",
	}
	if !slices.Equal(got, want) {
		t.Errorf("order:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestPlanNeverPrintsObject: Change.Object holds Secret values in the
// clear; no format, with any options, may print it.
func TestPlanNeverPrintsObject(t *testing.T) {
	for _, format := range PlanFormats() {
		for _, opts := range []PlanOptions{{}, {Color: true}, {MaxBytes: 900}} {
			for _, p := range []*plan.Plan{planFixture(), bigPlan(30, 100)} {
				out := string(renderPlan(t, format, p, opts))
				for _, s := range planSecrets {
					if strings.Contains(out, s) {
						t.Errorf("%s %+v: output contains the secret value %q", format, opts, s)
					}
				}
			}
		}
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 65536: "65,536", 1234567: "1,234,567", -1234: "-1,234"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}
