package plan_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/internal/config"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
	"github.com/kubeplan/kubeplan/plan"
)

// webhookAndRole are a webhook configuration whose caBundle cert-manager
// injects (git holds a placeholder, as many charts do) and an aggregated
// ClusterRole whose rules the aggregation controller fills in (git holds
// some of its own, which the controller replaces). Both are cluster-scoped: named after the test's namespace.
func webhookAndRole(ns, caBundle, rules string) string {
	return fmt.Sprintf(`apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: vw-%[1]s
  annotations: {cert-manager.io/inject-ca-from: %[1]s/webhook-cert}
webhooks:
  - name: v.example.com
    admissionReviewVersions: [v1]
    sideEffects: None
    failurePolicy: Ignore
    clientConfig: {url: "https://example.com/validate", caBundle: %[2]s}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: agg-%[1]s
aggregationRule:
  clusterRoleSelectors: [{matchLabels: {aggregate-to: %[1]s}}]
rules: %[3]s
`, ns, caBundle, rules)
}

// The built-in rules leave a caBundle cert-manager's cainjector set, and
// an aggregated ClusterRole's rules, to their controllers; yieldDefaults:
// false makes the plan take them back. An object not created yet is
// created as git has it.
func TestIntegrationPlanYieldBuiltins(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	ctx := context.Background()
	vw, role := "validatingwebhookconfiguration.admissionregistration.k8s.io/vw-"+ns, "clusterrole.rbac.authorization.k8s.io/agg-"+ns
	dir := writeSet(t, map[string]string{"set.yaml": webhookAndRole(ns, "Cg==", `[{apiGroups: [""], resources: [configmaps], verbs: [list]}]`)})
	t.Cleanup(func() {
		_, _ = c.TryKubectl("delete", "validatingwebhookconfiguration", "vw-"+ns, "--ignore-not-found")
		_, _ = c.TryKubectl("delete", "clusterrole", "agg-"+ns, "--ignore-not-found")
	})
	cl := client(t, c.AdminKubeconfig(), ns)

	p, err := plan.Make(ctx, cl, load(t, dir), plan.Options{Namespace: ns})
	if err != nil {
		t.Fatal(err)
	}
	ch := find(p, vw)
	if ch == nil || ch.Action != plan.Create || !strings.Contains(fmt.Sprint(ch.Object["webhooks"]), "caBundle:Cg==") {
		t.Fatalf("a new webhook configuration is not created as git has it: %+v", ch)
	}

	// kubeplan applies; then the controllers write their fields.
	c.Kubectl(t, "apply", "--server-side", "--field-manager=kubeplan", "-f", dir)
	c.Kubectl(t, "apply", "--server-side", "--field-manager=cainjector", "--force-conflicts", "-f", writeSet(t, map[string]string{"ca.yaml": fmt.Sprintf(
		"apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata: {name: vw-%s}\nwebhooks:\n  - name: v.example.com\n    admissionReviewVersions: [v1]\n    sideEffects: None\n    clientConfig: {caBundle: Zm9vYmFy}\n", ns)}))
	// The testcluster's kube-controller-manager aggregates for real.
	c.Kubectl(t, "apply", "-f", writeSet(t, map[string]string{"source.yaml": fmt.Sprintf(
		"apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: agg-src-%[1]s, labels: {aggregate-to: %[1]s}}\nrules: [{apiGroups: [\"\"], resources: [pods], verbs: [get]}]\n", ns)}))
	t.Cleanup(func() { _, _ = c.TryKubectl("delete", "clusterrole", "agg-src-"+ns, "--ignore-not-found") })
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		if out, _ := c.TryKubectl("get", "clusterrole", "agg-"+ns, "-o", "jsonpath={.rules[*].resources}"); strings.Contains(out, "pods") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the aggregation controller did not fill in the rules within 30s")
		}
	}

	p, err = plan.Make(ctx, cl, load(t, dir), plan.Options{Namespace: ns})
	if err != nil {
		t.Fatal(err)
	}
	for _, ref := range []string{vw, role} {
		if ch := find(p, ref); ch == nil || ch.Action != plan.Unchanged || len(ch.Drift) != 0 {
			t.Errorf("%s with the built-in rules: %+v", ref, ch)
		}
	}

	p, err = plan.Make(ctx, cl, load(t, dir), plan.Options{Namespace: ns, Yield: config.Yield{AllOff: true}})
	if err != nil {
		t.Fatal(err)
	}
	if ch := find(p, vw); ch == nil || ch.Action != plan.Update || len(ch.Drift) != 1 || ch.Drift[0].Manager != "cainjector" {
		t.Errorf("webhook configuration with yieldDefaults: false: %+v", ch)
	}
	if ch := find(p, role); ch == nil || ch.Action != plan.Update || !strings.Contains(ch.Diff, "- pods") {
		t.Errorf("aggregated ClusterRole with yieldDefaults: false: %+v", ch)
	}
	p, err = plan.Make(ctx, cl, load(t, dir), plan.Options{Namespace: ns, Yield: config.Yield{Off: map[string]bool{"ca-injectors": true}}})
	if err != nil {
		t.Fatal(err)
	}
	if find(p, vw).Action != plan.Update || find(p, role).Action != plan.Unchanged {
		t.Errorf("ca-injectors off: webhook %s, role %s; want update, unchanged", find(p, vw).Action, find(p, role).Action)
	}
}
