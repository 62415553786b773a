package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
	"github.com/kubeplan/kubeplan/plan"
)

func cli(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = Main(args, streams{in: strings.NewReader(""), out: &out, err: &errb})
	return code, out.String(), errb.String()
}

func TestIntegrationPlanCLI(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	kc := c.Narrow(t, "gitops", ns)
	dir := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("deployment.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  selector: {matchLabels: {app: web}}\n  replicas: 2\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers: [{name: web, image: \"nginx:1.30\"}]\n")
	write("configmap.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {currency: EUR}\n")
	base := []string{"plan", "--kubeconfig", kc, "-n", ns, "--applyset", "configmap/gitops-applyset"}

	// A new set: exit 2 with --detailed-exitcode, the summary line last.
	out := filepath.Join(t.TempDir(), "plan.json")
	code, stdout, stderr := cli(append(base, "--detailed-exitcode", "--out", out, dir)...)
	if code != 2 || !strings.HasSuffix(stdout, "Plan: 2 to add, 0 to change, 0 to prune, 0 unchanged.\n") {
		t.Fatalf("new set: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if p, err := plan.Load(out); err != nil || len(p.Changes) != 2 || p.Parent == nil || p.Parent.Exists {
		t.Errorf("saved plan: %v %+v", err, p)
	}
	// Without --detailed-exitcode a plan with changes exits 0.
	if code, _, _ := cli(append(base, dir)...); code != 0 {
		t.Errorf("plain plan exit %d", code)
	}
	// Markdown for pull requests.
	if code, stdout, _ := cli(append(base, "-o", "markdown", dir)...); code != 0 || !strings.Contains(stdout, "<details>") || !strings.Contains(stdout, "Plan: 2 to add") {
		t.Errorf("markdown: exit %d\n%s", code, stdout)
	}
	// Applied, the same plan has no changes: exit 0 with --detailed-exitcode, no diff.
	if code, stdout, stderr := cli("apply", "--kubeconfig", kc, "-n", ns, "--applyset", "configmap/gitops-applyset", "--timeout", "60s", dir); code != 0 {
		t.Fatalf("apply: exit %d\n%s\n%s", code, stdout, stderr)
	}
	code, stdout, _ = cli(append(base, "--detailed-exitcode", dir)...)
	if code != 0 || strings.Contains(stdout, "@@") || !strings.HasSuffix(stdout, "Plan: 0 to add, 0 to change, 0 to prune, 2 unchanged.\n") {
		t.Errorf("no-change plan: exit %d\n%s", code, stdout)
	}
	// An object naming another namespace is an error unless allowed.
	write("other.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: elsewhere, namespace: kube-system}\n")
	if code, _, stderr := cli(append(base, dir)...); code != 1 || !strings.Contains(stderr, "other.yaml:3:40: error namespace-mismatch") {
		t.Errorf("other namespace: exit %d %s", code, stderr)
	}
	// Allowed, it passes lint and meets the permission check: the narrow
	// identity may not write kube-system.
	if code, _, stderr := cli(append(base, "--allow-other-namespaces", dir)...); code != 1 || !strings.Contains(stderr, "kubectl auth can-i create configmaps -n kube-system") {
		t.Errorf("allowed other namespace: exit %d %s", code, stderr)
	}
	os.Remove(filepath.Join(dir, "other.yaml"))
	// status as JSON.
	if code, stdout, _ := cli("status", "--kubeconfig", kc, "-n", ns, "--applyset", "configmap/gitops-applyset", "-o", "json"); code != 0 || !strings.Contains(stdout, `"result": "ok"`) || !strings.Contains(stdout, `"status": "Current"`) {
		t.Errorf("status json: exit %d\n%s", code, stdout)
	}

	// The seed's typo: lint stops the plan with file:line:col, exit 1.
	write("deployment.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  selector: {matchLabels: {app: web}}\n  replicas: three\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers: [{name: web, image: \"nginx:1.30\"}]\n")
	code, stdout, stderr = cli(append(base, "--detailed-exitcode", dir)...)
	want := filepath.Join(dir, "deployment.yaml") + ":7:13: error schema: spec.replicas must be an integer"
	if code != 1 || stdout != "" || !strings.Contains(stderr, want) || !strings.Contains(stderr, "nothing was sent to the cluster") {
		t.Errorf("typo: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	// Bad flags exit 1.
	if code, _, stderr := cli(append(base, "-o", "yaml", dir)...); code != 1 || !strings.Contains(stderr, `unknown --output "yaml"`) {
		t.Errorf("bad output flag: exit %d %s", code, stderr)
	}
}
