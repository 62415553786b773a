package plan_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
	"github.com/kubeplan/kubeplan/plan"
)

func autoscaler(apiVersion string) string {
	return "apiVersion: " + apiVersion + `
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 1
  maxReplicas: 10
`
}

func replicasOf(t *testing.T, p *plan.Plan) (any, bool) {
	t.Helper()
	web := find(p, "deployment.apps/web")
	if web == nil {
		t.Fatalf("no change for deployment.apps/web: %+v", p.Changes)
	}
	spec, _ := web.Object["spec"].(map[string]any)
	v, ok := spec["replicas"]
	return v, ok
}

// An autoscaling/v1 autoscaler in the cluster takes replicas out of the
// object to apply; an identity that may not list autoscalers plans anyway,
// with only the autoscalers of the set counting.
func TestIntegrationPlanHPAVisibility(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	ctx := context.Background()
	dir := writeSet(t, map[string]string{"deployment.yaml": seedDeployment})
	c.Kubectl(t, "-n", ns, "apply", "-f", writeSet(t, map[string]string{"hpa.yaml": autoscaler("autoscaling/v1")}))

	p, err := plan.Make(ctx, client(t, c.AdminKubeconfig(), ns), load(t, dir), plan.Options{Namespace: ns})
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := replicasOf(t, p); ok {
		t.Errorf("replicas %v still applied although an autoscaler in the cluster scales web", v)
	}

	// May write Deployments, may not see autoscalers.
	user := "deployer-" + ns
	kc := c.User(t, user)
	c.Kubectl(t, "-n", ns, "create", "role", "deployer", "--verb=get,list,watch,create,update,patch", "--resource=deployments.apps")
	c.Kubectl(t, "-n", ns, "create", "rolebinding", user, "--role=deployer", "--user="+user)
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if out, _ := c.TryKubectl("--kubeconfig", kc, "auth", "can-i", "patch", "deployments", "-n", ns); strings.TrimSpace(out) == "yes" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the deployer binding did not take effect")
		}
	}
	if out, _ := c.TryKubectl("--kubeconfig", kc, "auth", "can-i", "list", "horizontalpodautoscalers", "-n", ns); strings.TrimSpace(out) != "no" {
		t.Fatalf("deployer may list autoscalers: %q", out)
	}
	p, err = plan.Make(ctx, client(t, kc, ns), load(t, dir), plan.Options{Namespace: ns})
	if err != nil {
		t.Fatalf("plan by an identity that may not list autoscalers: %v", err)
	}
	if v, ok := replicasOf(t, p); !ok || v != int64(2) {
		t.Errorf("replicas = %v, %v; want git's 2 when no autoscaler is visible", v, ok)
	}
}
