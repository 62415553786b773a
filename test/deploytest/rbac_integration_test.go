package deploytest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

const serviceAccount = "system:serviceaccount:kubeplan-system:kubeplan"

// testPermissions checks the ServiceAccount of deploy/ has what a reconcile
// of namespace store needs and no more: first as the authorizer answers
// (kubectl auth can-i --as), then by acting with a token of its own (a
// TokenRequest): kubeplan applies a Deployment into store, and the reads
// and writes it must not make are refused.
func testPermissions(t *testing.T, c *testkube.Cluster) {
	for _, tc := range []struct {
		verb, resource, ns string
		want               bool
	}{
		// What apply needs in a managed namespace.
		{"create", "deployments.apps", "store", true},
		{"patch", "deployments.apps", "store", true},
		{"list", "deployments.apps", "store", true},
		{"delete", "deployments.apps", "store", true},
		{"patch", "configmaps", "store", true},
		{"create", "leases.coordination.k8s.io", "store", true},
		{"update", "leases.coordination.k8s.io", "store", true},
		{"delete", "leases.coordination.k8s.io", "store", true},
		{"create", "events", "store", true},
		{"create", "events.events.k8s.io", "store", true},
		// Its own namespace.
		{"create", "leases.coordination.k8s.io", "kubeplan-system", true},
		{"create", "events", "kubeplan-system", true},
		{"update", "configmaps", "kubeplan-system", true},
		// Nothing more.
		{"get", "secrets", "kubeplan-system", false},
		{"list", "secrets", "default", false},
		{"get", "secrets", "kube-system", false},
		{"create", "deployments.apps", "kubeplan-system", false},
		{"create", "deployments.apps", "default", false},
		{"create", "rolebindings.rbac.authorization.k8s.io", "store", false},
		{"create", "roles.rbac.authorization.k8s.io", "kubeplan-system", false},
		{"create", "clusterroles.rbac.authorization.k8s.io", "", false},
		{"create", "clusterrolebindings.rbac.authorization.k8s.io", "", false},
		{"list", "namespaces", "", false},
		{"create", "namespaces", "", false},
		{"list", "deployments.apps", "", false}, // across all namespaces
	} {
		args := []string{"auth", "can-i", tc.verb, tc.resource, "--as", serviceAccount}
		if tc.ns != "" {
			args = append(args, "-n", tc.ns)
		} else if tc.resource == "deployments.apps" {
			args = append(args, "--all-namespaces")
		}
		out, _ := c.TryKubectl(args...) // exits 1 for "no"
		if got := strings.TrimSpace(out) == "yes"; got != tc.want {
			t.Errorf("kubectl %s: %q, want %v", strings.Join(args, " "), strings.TrimSpace(out), tc.want)
		}
	}

	// The Role beside the edit binding grants the lock and the Events by
	// itself: edit has them since recent releases (1.37, tested here, has
	// both), older releases' edit does not.
	roleOnly := c.User(t, "role-only")
	c.Kubectl(t, "-n", "store", "create", "rolebinding", "role-only", "--role=kubeplan", "--user=role-only")
	for _, tc := range []struct {
		verb, resource string
		want           string
	}{
		{"create", "leases.coordination.k8s.io", "yes"}, {"update", "leases.coordination.k8s.io", "yes"},
		{"delete", "leases.coordination.k8s.io", "yes"}, {"create", "events", "yes"},
		{"patch", "events.events.k8s.io", "yes"}, {"create", "configmaps", "no"},
	} {
		var out string
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			out, _ = c.TryKubectl("--kubeconfig", roleOnly, "auth", "can-i", tc.verb, tc.resource, "-n", "store")
			if strings.TrimSpace(out) == tc.want || time.Now().After(deadline) {
				break // the authorizer reads bindings from a watch cache
			}
		}
		if got := strings.TrimSpace(out); got != tc.want {
			t.Errorf("Role kubeplan alone: can-i %s %s in store: %q, want %s", tc.verb, tc.resource, got, tc.want)
		}
	}

	kc := serviceAccountKubeconfig(t, c)
	as := func(args ...string) (string, error) {
		return c.TryKubectl(append([]string{"--kubeconfig", kc}, args...)...)
	}
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}

	// A reconcile, as serve makes it: kubeplan apply with the apply lock, as the ServiceAccount.
	if err := os.MkdirAll(filepath.Join(dir, "shop"), 0o755); err != nil {
		t.Fatal(err)
	}
	write("shop/deployment.yaml", testkube.Deployment("web", "registry.example/web:1", 1))
	write("shop/configmap.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  currency: EUR\n")
	res := kubeplan(t, []string{"KUBECONFIG=" + kc}, "apply", "-n", "store", "--applyset", "configmap/shop", "--timeout", "1m", filepath.Join(dir, "shop"))
	if res.code != 0 || !strings.Contains(res.stdout, "Apply: 2 created, 0 configured, 0 pruned") {
		t.Fatalf("kubeplan apply into store as the ServiceAccount: %s", res)
	}
	if got := c.Kubectl(t, "-n", "store", "get", "deployment", "web", "-o", "jsonpath={.status.availableReplicas}"); got != "1" {
		t.Errorf("deployment web in store: %q available, want 1", got)
	}

	// The writes serve makes itself: a Lease and an Event in store.
	lease := write("lease.yaml", "apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata:\n  name: kubeplan-lock-probe\n  namespace: store\nspec:\n  holderIdentity: probe\n  leaseDurationSeconds: 60\n")
	if out, err := as("create", "-f", lease); err != nil {
		t.Errorf("create a Lease in store as the ServiceAccount: %v %s", err, out)
	}
	event := write("event.yaml", `apiVersion: v1
kind: Event
metadata:
  name: shop.probe
  namespace: store
involvedObject:
  apiVersion: v1
  kind: ConfigMap
  name: shop
  namespace: store
reason: Applied
message: probe
type: Normal
source:
  component: kubeplan
firstTimestamp: "`+time.Now().UTC().Format(time.RFC3339)+`"
count: 1
`)
	if out, err := as("create", "-f", event); err != nil {
		t.Errorf("create an Event in store as the ServiceAccount: %v %s", err, out)
	}

	// And what it must not do.
	for _, args := range [][]string{
		{"-n", "kubeplan-system", "get", "secret", "kubeplan-git"},
		{"-n", "default", "get", "secrets"},
		{"get", "clusterroles"},
		{"create", "clusterrolebinding", "escalate", "--clusterrole=cluster-admin", "--serviceaccount=kubeplan-system:kubeplan"},
		{"-n", "store", "create", "rolebinding", "escalate", "--clusterrole=admin", "--serviceaccount=kubeplan-system:kubeplan"},
		{"-n", "default", "create", "configmap", "elsewhere"},
	} {
		out, err := as(args...)
		if err == nil || !strings.Contains(err.Error(), "Forbidden") && !strings.Contains(err.Error(), "forbidden") {
			t.Errorf("kubectl %s as the ServiceAccount: want forbidden, got %v %s", strings.Join(args, " "), err, out)
		}
	}
}

// serviceAccountKubeconfig writes a kubeconfig holding a token of the
// ServiceAccount (a TokenRequest, via kubectl create token) for the cluster.
func serviceAccountKubeconfig(t *testing.T, c *testkube.Cluster) string {
	t.Helper()
	token := strings.TrimSpace(c.Kubectl(t, "-n", "kubeplan-system", "create", "token", "kubeplan", "--duration=10m"))
	server := c.Kubectl(t, "config", "view", "--raw", "--minify", "--flatten", "-o", "jsonpath={.clusters[0].cluster.server}")
	ca := c.Kubectl(t, "config", "view", "--raw", "--minify", "--flatten", "-o", "jsonpath={.clusters[0].cluster.certificate-authority-data}")
	if token == "" || server == "" || ca == "" {
		t.Fatalf("token %d bytes, server %q, CA %d bytes", len(token), server, len(ca))
	}
	kc := filepath.Join(t.TempDir(), "kubeplan-sa.kubeconfig")
	content := `apiVersion: v1
kind: Config
clusters:
- name: test
  cluster:
    server: ` + server + `
    certificate-authority-data: ` + ca + `
users:
- name: kubeplan
  user:
    token: ` + token + `
contexts:
- name: kubeplan
  context: {cluster: test, user: kubeplan, namespace: store}
current-context: kubeplan
`
	if err := os.WriteFile(kc, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return kc
}
