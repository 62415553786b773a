package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

// rbacRule is one rule of a Role or ClusterRole.
type rbacRule struct {
	APIGroups     []string `json:"apiGroups,omitempty"`
	Resources     []string `json:"resources,omitempty"`
	ResourceNames []string `json:"resourceNames,omitempty"`
	Verbs         []string `json:"verbs"`
}

// editWithoutDiagnosis is the rules of the cluster's ClusterRole edit
// without what a diagnosis reads: no pods/log, and no events at all (edit
// grants get, list and watch on them, core and events.k8s.io). What apply
// itself needs (the workloads, pods, Secrets, ConfigMaps, Leases) is kept.
func editWithoutDiagnosis(t *testing.T, c *testkube.Cluster) []rbacRule {
	t.Helper()
	var edit struct {
		Rules []rbacRule `json:"rules"`
	}
	if err := json.Unmarshal([]byte(c.Kubectl(t, "get", "clusterrole", "edit", "-o", "json")), &edit); err != nil {
		t.Fatal(err)
	}
	var out []rbacRule
	var dropped []string
	for _, r := range edit.Rules {
		r.Resources = slices.DeleteFunc(r.Resources, func(res string) bool {
			drop := res == "pods/log" || res == "events" && (slices.Contains(r.APIGroups, "") || slices.Contains(r.APIGroups, "events.k8s.io"))
			if drop {
				dropped = append(dropped, res)
			}
			return drop
		})
		if len(r.Resources) > 0 {
			out = append(out, r)
		}
	}
	// The test means something only if edit granted both.
	if !slices.Contains(dropped, "pods/log") || !slices.Contains(dropped, "events") {
		t.Fatalf("edit grants no pods/log or no events here (dropped %q): nothing to take away", dropped)
	}
	return out
}

// deployRole is the Role kubeplan of a file of deploy/, as shipped, moved
// to namespace ns.
func deployRole(t *testing.T, file, ns string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(t), filepath.FromSlash(file)))
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range strings.Split(string(b), "\n---\n") {
		var u map[string]any
		if err := yaml.Unmarshal([]byte(doc), &u); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		meta, _ := u["metadata"].(map[string]any)
		if u["kind"] == "Role" && meta["name"] == "kubeplan" {
			meta["namespace"] = ns
			return u
		}
	}
	t.Fatalf("%s holds no Role kubeplan", file)
	return nil
}

// repoRoot is the checkout's root (cmd/kubeplan is two levels down).
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// boundUser makes user a user bound in ns to each of roles (Role objects,
// created here) and returns its kubeconfig once the authorizer lets it
// create Deployments there.
func boundUser(t *testing.T, c *testkube.Cluster, ns, user string, roles ...map[string]any) string {
	t.Helper()
	kc := c.User(t, user)
	dir := t.TempDir()
	for i, role := range roles {
		name := role["metadata"].(map[string]any)["name"].(string)
		binding := map[string]any{
			"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
			"metadata": map[string]any{"name": user + "-" + name, "namespace": ns},
			"roleRef":  map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": name},
			"subjects": []any{map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": user}},
		}
		for j, obj := range []map[string]any{role, binding} {
			b, err := json.Marshal(obj)
			if err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(dir, strings.Repeat("x", i*2+j+1)+".json")
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
			c.Kubectl(t, "apply", "-f", p)
		}
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		out, _ := c.TryKubectl("--kubeconfig", kc, "auth", "can-i", "create", "deployments.apps", "-n", ns)
		if strings.TrimSpace(out) == "yes" {
			return kc
		}
		if time.Now().After(deadline) {
			t.Fatalf("the bindings of %s in %s did not take effect within 5 s", user, ns)
		}
	}
}

// applyRole is a Role of ns named apply-only: edit without what a
// diagnosis reads.
func applyRole(t *testing.T, c *testkube.Cluster, ns string) map[string]any {
	t.Helper()
	var rules []any
	for _, r := range editWithoutDiagnosis(t, c) {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		rules = append(rules, m)
	}
	return map[string]any{
		"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role",
		"metadata": map[string]any{"name": "apply-only", "namespace": ns},
		"rules":    rules,
	}
}

// An identity that may apply but may neither read pods/log nor list
// events still fails fast; the diagnosis names the two permissions it
// lacks and reports what it could read: the container, the reason, the
// restarts and the exit code.
func TestIntegrationApplyDiagnosisMissingPermissions(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	kc := boundUser(t, c, ns, "apply-only-"+ns, applyRole(t, c, ns))
	// The authorizer agrees it lacks both, and has the rest.
	for _, args := range [][]string{
		{"get", "pods", "--subresource=log"}, {"list", "events"}, {"list", "events.events.k8s.io"},
	} {
		out, _ := c.TryKubectl(append([]string{"--kubeconfig", kc, "auth", "can-i", "-n", ns}, args...)...)
		if strings.TrimSpace(out) != "no" {
			t.Fatalf("can-i %s: %q, want no", strings.Join(args, " "), strings.TrimSpace(out))
		}
	}
	_, stdout, stderr := applyFailing(t, kc, ns, failingApply{applyset: "rbac", files: map[string]string{"app.yaml": crashLoopSet}})
	wantAll(t, "stdout", stdout, crashLoopCause...)
	wantAll(t, "stdout", stdout,
		"    log not read: missing permission: get pods/log\n",
		"  missing permission: list events (events.k8s.io)\n",
		"  missing permission: get pods/log\n",
	)
	for _, not := range crashLoopRead {
		if strings.Contains(stdout, not) {
			t.Errorf("stdout holds %q, which it could not read:\n%s", not, stdout)
		}
	}
	wantMasked(t, stdout, stderr)
	wantNamed(t, stderr, "deployment.apps/web", "CrashLoopBackOff")

	// The same in -o json (another namespace: apply waits only for what
	// it wrote): health[].diagnosis.missing names both.
	ns2 := c.Namespace(t)
	kc2 := boundUser(t, c, ns2, "apply-only-"+ns2, applyRole(t, c, ns2))
	_, stdout, _ = applyFailing(t, kc2, ns2, failingApply{applyset: "rbac", args: []string{"-o", "json"}, files: map[string]string{"app.yaml": crashLoopSet}})
	var doc struct {
		Health []struct {
			Diagnosis *struct {
				Missing []string `json:"missing"`
			} `json:"diagnosis"`
		} `json:"health"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("-o json: %v\n%s", err, stdout)
	}
	var missing []string
	for _, h := range doc.Health {
		if h.Diagnosis != nil {
			missing = append(missing, h.Diagnosis.Missing...)
		}
	}
	if want := []string{"missing permission: list events (events.k8s.io)", "missing permission: get pods/log"}; !slices.Equal(missing, want) {
		t.Errorf("-o json: missing %q, want %q", missing, want)
	}
}

// The Role deploy/ grants in a managed namespace, as shipped, is what a
// diagnosis needs: with it beside the apply-only Role, the same failure
// shows the log tail and the events, and no permission is missing.
func TestIntegrationApplyDiagnosisDeployRole(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	kc := boundUser(t, c, ns, "deploy-role-"+ns, applyRole(t, c, ns), deployRole(t, "deploy/overlays/example/store-rbac.yaml", ns))
	_, stdout, stderr := applyFailing(t, kc, ns, failingApply{applyset: "rbac", files: map[string]string{"app.yaml": crashLoopSet}})
	wantAll(t, "stdout", stdout, crashLoopCause...)
	wantAll(t, "stdout", stdout, crashLoopRead...)
	wantMasked(t, stdout, stderr)
	if strings.Contains(stdout, "missing permission") {
		t.Errorf("a permission is said to be missing:\n%s", stdout)
	}
}
