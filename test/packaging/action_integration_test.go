package packaging

import (
	"os"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

// kubeconfigSpy wraps the real kubeplan: it records the mode and path of
// $KUBECONFIG while kubeplan runs, then runs kubeplan itself.
const kubeconfigSpy = `stat -c %a "$KUBECONFIG" > "$RECORD/mode"
printf '%s' "$KUBECONFIG" > "$RECORD/path"
exec "$REAL" "$@"`

// TestIntegrationActionPlanApply runs the action's plan and apply against
// the real cluster, with the kubeconfig input holding a narrow identity's
// kubeconfig (edit in one namespace), as a workflow passes it from a secret.
func TestIntegrationActionPlanApply(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	kcPath := c.Narrow(t, "ci", ns)
	kc, err := os.ReadFile(kcPath)
	if err != nil {
		t.Fatal(err)
	}
	r := newActionRun(t)
	deployment := strings.Replace(goodDeployment, "  namespace: store\n", "", 1)
	r.write("manifests/deployment.yaml", deployment)
	r.write("manifests/configmap.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  currency: EUR\n")
	inputs := func(command, extra string) map[string]string {
		return map[string]string{"command": command, "path": "manifests", "namespace": ns,
			"applyset": "configmap/gitops-applyset", "kubeconfig": string(kc), "extra-args": extra}
	}

	rec := r.standIn(kubeconfigSpy)
	res := r.run(inputs("plan", ""))
	if res.exitCode != 0 || res.outputs["exit-code"] != "0" ||
		!strings.Contains(res.stdout, "Plan: 2 to add, 0 to change, 0 to prune, 0 unchanged.") {
		t.Fatalf("plan: exit %d, exit-code %q\nstdout:\n%s\nstderr:\n%s", res.exitCode, res.outputs["exit-code"], res.stdout, res.stderr)
	}
	if mode := readRecord(t, rec, "mode"); mode != "600\n" {
		t.Errorf("kubeconfig mode while kubeplan ran: %q, want 600", mode)
	}
	if p := readRecord(t, rec, "path"); !strings.HasPrefix(p, r.runnerTemp+"/") {
		t.Errorf("KUBECONFIG=%s, want a file in $RUNNER_TEMP", p)
	} else if _, err := os.Stat(p); !os.IsNotExist(err) {
		t.Errorf("the kubeconfig file %s is still there after the step (%v)", p, err)
	}
	if left := r.leftovers(); len(left) > 0 {
		t.Errorf("left in $RUNNER_TEMP: %v", left)
	}
	// kubeplan's GitHub mode fills the action's outputs and the job summary.
	if res.outputs["has-changes"] != "true" || !strings.HasPrefix(res.outputs["summary"], "Plan: 2 to add") ||
		!strings.Contains(res.summary, "kubeplan plan") {
		t.Errorf("plan outputs %v, job summary:\n%s", res.outputs, res.summary)
	}
	if strings.Contains(res.stdout+res.stderr, "BEGIN") || strings.Contains(res.stdout+res.stderr, "client-key-data") {
		t.Errorf("kubeconfig material in the log")
	}

	res = r.run(inputs("apply", "--timeout 60s"))
	if res.exitCode != 0 || res.outputs["exit-code"] != "0" || !strings.Contains(res.stdout, "Apply: 2 created, 0 configured, 0 pruned, 0 unchanged.") {
		t.Fatalf("apply: exit %d\nstdout:\n%s\nstderr:\n%s", res.exitCode, res.stdout, res.stderr)
	}
	if got := c.Kubectl(t, "-n", ns, "get", "deployment", "web", "-o", "jsonpath={.spec.replicas}"); got != "3" {
		t.Errorf("deployment web replicas %q after apply, want 3", got)
	}
	if res.outputs["has-changes"] != "true" {
		t.Errorf("apply outputs %v, want has-changes true", res.outputs)
	}

	// The configmap leaves git: a detailed plan exits 2 with the prune, and
	// the step fails with kubeplan's exit code.
	if err := os.Remove(r.workspace + "/manifests/configmap.yaml"); err != nil {
		t.Fatal(err)
	}
	res = r.run(inputs("plan", "--detailed-exitcode"))
	if res.exitCode != 2 || res.outputs["exit-code"] != "2" || res.failedStep != "kubeplan plan" ||
		!strings.Contains(res.stdout, "configmap/settings") || !strings.Contains(res.stdout, "Plan: 0 to add, 0 to change, 1 to prune, 1 unchanged.") {
		t.Errorf("plan after removing the configmap: step %q exit %d, exit-code %q\nstdout:\n%s\nstderr:\n%s",
			res.failedStep, res.exitCode, res.outputs["exit-code"], res.stdout, res.stderr)
	}
	if left := r.leftovers(); len(left) > 0 {
		t.Errorf("left in $RUNNER_TEMP: %v", left)
	}
}
