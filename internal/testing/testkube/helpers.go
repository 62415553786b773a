package testkube

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Namespace creates a namespace named after t, waits for its default
// ServiceAccount (pods cannot be created before the controllers add it), and
// deletes the namespace when t ends (without waiting for it to go).
func (c *Cluster) Namespace(t testing.TB) string {
	t.Helper()
	name := namespaceName(t.Name(), c.seq.Add(1))
	dc, err := c.admin()
	if err != nil {
		t.Fatalf("testkube: namespace %s: %v", name, err)
	}
	ctx := context.Background()
	ns := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": name}}}
	if _, err := dc.Resource(namespacesGVR).Create(ctx, ns, metav1.CreateOptions{}); err != nil {
		t.Fatalf("testkube: create namespace: %v", err)
	}
	for deadline := time.Now().Add(namespaceTimeout); ; time.Sleep(50 * time.Millisecond) {
		_, err := dc.Resource(serviceAccountsGVR).Namespace(name).Get(ctx, "default", metav1.GetOptions{})
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("testkube: namespace %s has no default ServiceAccount after %s: %v", name, namespaceTimeout, err)
		}
	}
	t.Cleanup(func() {
		if dc, err := c.admin(); err == nil {
			_ = dc.Resource(namespacesGVR).Delete(context.Background(), name, metav1.DeleteOptions{})
		}
	})
	return name
}

const namespaceTimeout = 20 * time.Second

var notDNS = regexp.MustCompile(`[^a-z0-9]+`)

// namespaceName makes a DNS label from a test name and a sequence number.
func namespaceName(test string, seq int64) string {
	base := strings.Trim(notDNS.ReplaceAllString(strings.ToLower(test), "-"), "-")
	suffix := fmt.Sprintf("-%d", seq)
	if max := 63 - len(suffix); len(base) > max {
		base = strings.TrimRight(base[:max], "-")
	}
	if base == "" {
		base = "test"
	}
	return base + suffix
}

// User writes a kubeconfig for user name in groups (a client certificate
// signed by the cluster's CA) and returns its path. The user has no rights
// until a test binds some.
func (c *Cluster) User(t testing.TB, name string, groups ...string) string {
	t.Helper()
	args := []string{"user", "--dir", c.dir, "--name", name}
	for _, g := range groups {
		args = append(args, "--group", g)
	}
	out, err := exec.Command(c.binary, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("testkube: testcluster %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return filepath.Join(c.dir, name+".kubeconfig")
}

// Kubectl runs kubectl against the cluster as admin (a --kubeconfig in args
// takes precedence) and returns its stdout; it fails t when kubectl fails.
func (c *Cluster) Kubectl(t testing.TB, args ...string) string {
	t.Helper()
	out, err := c.TryKubectl(args...)
	if err != nil {
		t.Fatalf("kubectl %s: %v", strings.Join(args, " "), err)
	}
	return out
}

// TryKubectl is Kubectl that returns kubectl's failure (with its stderr) instead of failing a test.
func (c *Cluster) TryKubectl(args ...string) (string, error) {
	cmd := exec.Command("kubectl", args...)
	// A discovery cache per cluster: ports are reused, API sets may differ.
	cmd.Env = append(cmd.Environ(), "KUBECONFIG="+c.kubeconfig, "KUBECACHEDIR="+filepath.Join(c.dir, "kubectl-cache"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), fmt.Errorf("%w: %s", err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}

// Narrow mints the seed's reconciler identity for ns: a user (named
// prefix-ns) bound to the ClusterRole edit in ns only. It waits until the
// authorizer sees the binding (it reads from a watch cache) and returns the
// user's kubeconfig.
func (c *Cluster) Narrow(t testing.TB, prefix, ns string) string {
	t.Helper()
	user := prefix + "-" + ns
	kc := c.User(t, user)
	dc, err := c.admin()
	if err != nil {
		t.Fatalf("testkube: narrow identity %s: %v", user, err)
	}
	rbac := "rbac.authorization.k8s.io"
	binding := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": rbac + "/v1",
		"kind":       "RoleBinding",
		"metadata":   map[string]any{"name": user, "namespace": ns},
		"roleRef":    map[string]any{"apiGroup": rbac, "kind": "ClusterRole", "name": "edit"},
		"subjects":   []any{map[string]any{"apiGroup": rbac, "kind": "User", "name": user}},
	}}
	if _, err := dc.Resource(roleBindingsGVR).Namespace(ns).Create(context.Background(), binding, metav1.CreateOptions{}); err != nil {
		t.Fatalf("testkube: create rolebinding %s in %s: %v", user, ns, err)
	}
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if ok, _ := canCreateDeployments(kc, ns); ok {
			return kc
		}
	}
	t.Fatalf("testkube: the edit binding of %s in %s did not take effect within 5 s", user, ns)
	return ""
}

// Deployment is a minimal Deployment manifest: NAME with replicas of one
// container running image, selected by app: NAME.
func Deployment(name, image string, replicas int) string {
	return strings.NewReplacer("NAME", name, "IMAGE", image, "REPLICAS", strconv.Itoa(replicas)).Replace(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: NAME
spec:
  replicas: REPLICAS
  selector:
    matchLabels: {app: NAME}
  template:
    metadata:
      labels: {app: NAME}
    spec:
      containers:
      - name: main
        image: IMAGE
`)
}

// CrashLoopSet is a Secret db holding password (an ignored plaintext
// Secret) and a Deployment web of two replicas whose container main (the
// testcluster's tag crashloop) prints "connecting with password
// $(PASSWORD)", the variable read from that Secret, and "fatal: cannot
// connect", then exits 1, again and again: a crash loop whose log would
// leak the Secret's value unless it is masked.
func CrashLoopSet(password string) string {
	return `apiVersion: v1
kind: Secret
metadata:
  name: db
  annotations:
    kubeplan.dev/ignore: plaintext-secret
stringData:
  password: ` + password + `
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: main
        image: registry.example/web:crashloop
        args: ["connecting with password $(PASSWORD)", "fatal: cannot connect"]
        env:
        - name: PASSWORD
          valueFrom:
            secretKeyRef: {name: db, key: password}
`
}
