package deploytest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

// The installation's ApplySets, both parents in kubeplan-system.
const (
	bundleSet     = "configmap/kubeplan-install"
	monitoringSet = "configmap/kubeplan-monitoring"
)

// TestIntegrationBundle installs deploy/ the way deploy/README.md says, with
// kubeplan itself, on the real cluster: the namespace and the git Secret
// first, then plan and apply of deploy/overlays/example (which waits until
// the Deployment is available, so Pod Security "restricted" admitted its
// pod), then deploy/monitoring after the Prometheus Operator's CRDs; a
// second plan of each changes nothing. Then the ServiceAccount's permissions
// are checked, as the API server's authorizer sees them and by using them.
func TestIntegrationBundle(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	env := []string{"KUBECONFIG=" + c.AdminKubeconfig()}

	// Prerequisites (deploy/README.md): the managed namespace, kubeplan's
	// namespace and its git token.
	c.Kubectl(t, "create", "namespace", "store")
	c.Kubectl(t, "create", "namespace", "kubeplan-system")
	token := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(token, []byte("ghp_notarealtoken"), 0o600); err != nil {
		t.Fatal(err)
	}
	c.Kubectl(t, "-n", "kubeplan-system", "create", "secret", "generic", "kubeplan-git", "--from-file=token="+token)

	install := []string{"-n", "kubeplan-system", "--applyset", bundleSet, "--allow-other-namespaces", "deploy/overlays/example"}
	res := kubeplan(t, env, append([]string{"plan", "--detailed-exitcode"}, install...)...)
	if res.code != 2 || !strings.Contains(res.stdout, "Plan: 9 to add, 1 to change, 0 to prune") {
		t.Fatalf("first plan: want exit 2 and 9 to add (the namespace exists)\n%s", res)
	}
	res = kubeplan(t, env, append([]string{"apply", "--timeout", "2m"}, install...)...)
	if res.code != 0 || !strings.Contains(res.stdout, "Apply: 9 created, 1 configured, 0 pruned") {
		t.Fatalf("apply: %s", res)
	}
	res = kubeplan(t, env, append([]string{"plan", "--detailed-exitcode"}, install...)...)
	if res.code != 0 || !strings.Contains(res.stdout, "Plan: 0 to add, 0 to change, 0 to prune, 10 unchanged.") {
		t.Fatalf("plan after apply: want no changes\n%s", res)
	}
	for _, obj := range []string{"serviceaccount/kubeplan", "role/kubeplan", "rolebinding/kubeplan", "service/kubeplan-metrics", "networkpolicy/kubeplan"} {
		c.Kubectl(t, "-n", "kubeplan-system", "get", obj)
	}
	for _, obj := range []string{"role/kubeplan", "rolebinding/kubeplan", "rolebinding/kubeplan-edit"} {
		c.Kubectl(t, "-n", "store", "get", obj)
	}
	if got := c.Kubectl(t, "-n", "kubeplan-system", "get", "deployment", "kubeplan", "-o", "jsonpath={.status.availableReplicas}"); got != "1" {
		t.Errorf("deployment kubeplan: %q available replicas, want 1", got)
	}
	if got := c.Kubectl(t, "get", "namespace", "kubeplan-system", "-o", `jsonpath={.metadata.labels.pod-security\.kubernetes\.io/enforce}`); got != "restricted" {
		t.Errorf("namespace kubeplan-system enforces %q, want restricted", got)
	}
	// The label is enforced: a pod that is not restricted is refused there.
	out, err := c.TryKubectl("-n", "kubeplan-system", "run", "privileged", "--image=busybox", "--restart=Never",
		`--overrides={"spec":{"containers":[{"name":"privileged","image":"busybox","securityContext":{"privileged":true}}]}}`)
	if err == nil || !strings.Contains(err.Error(), `violates PodSecurity "restricted:latest"`) {
		t.Errorf("a privileged pod in kubeplan-system: want refused by PodSecurity, got %v %s", err, out)
	}

	// The other way deploy/README.md gives, kubectl's own kustomize and
	// server-side apply, takes the same bundle as it is (a server-side dry run).
	out, err = c.TryKubectl("apply", "--server-side", "--dry-run=server", "-k", filepath.Join(repoRoot(t), "deploy/overlays/example"))
	if err != nil || !strings.Contains(out, "deployment.apps/kubeplan serverside-applied") {
		t.Errorf("kubectl apply --server-side -k deploy/overlays/example: %v\n%s", err, out)
	}

	t.Run("monitoring", func(t *testing.T) { testMonitoring(t, c, env) })
	t.Run("permissions", func(t *testing.T) { testPermissions(t, c) })
	t.Run("notify-state", func(t *testing.T) { testNotifyState(t, c) })
}

// testMonitoring applies deploy/monitoring once the CRDs are there.
func testMonitoring(t *testing.T, c *testkube.Cluster, env []string) {
	c.Kubectl(t, "apply", "--server-side", "-f", filepath.Join(repoRoot(t), "deploy/crds"))
	c.Kubectl(t, "wait", "--for=condition=Established", "--timeout=60s",
		"crd/prometheusrules.monitoring.coreos.com", "crd/servicemonitors.monitoring.coreos.com")
	// lint reads CRDs from files, not the cluster: --crds gives it the same ones.
	mon := []string{"-n", "kubeplan-system", "--applyset", monitoringSet, "--crds", "deploy/crds", "deploy/monitoring"}
	res := kubeplan(t, env, append([]string{"apply", "--timeout", "1m"}, mon...)...)
	if res.code != 0 || !strings.Contains(res.stdout, "Apply: 2 created, 0 configured, 0 pruned") {
		t.Fatalf("apply of deploy/monitoring: %s", res)
	}
	res = kubeplan(t, env, append([]string{"plan", "--detailed-exitcode"}, mon...)...)
	if res.code != 0 || !strings.Contains(res.stdout, "Plan: 0 to add, 0 to change, 0 to prune, 2 unchanged.") {
		t.Fatalf("plan of deploy/monitoring after apply: want no changes\n%s", res)
	}
	got := c.Kubectl(t, "-n", "kubeplan-system", "get", "prometheusrule", "kubeplan", "-o", "jsonpath={.spec.groups[0].rules[*].alert}")
	if got != "KubeplanSyncFailing KubeplanDriftDetected KubeplanApprovalPending KubeplanNoSuccessfulRun KubeplanSourceFailing KubeplanWebhookRejected KubeplanAbsent" {
		t.Errorf("alerts stored: %q", got)
	}
}
