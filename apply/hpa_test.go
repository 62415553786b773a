package apply_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/manifest/loader"
	"github.com/kubeplan/kubeplan/plan"
)

// hpa scales deployment/web between 1 and 10 replicas. The test cluster
// serves no metrics, so its controller never scales it by itself.
const hpa = `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: web
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 1
  maxReplicas: 10
`

// runSet plans and applies the directory as the narrow identity, with the
// ApplySet as (nil for none), without waiting for health.
func (e *env) runSet(as *applyset.Parent) (*plan.Plan, *apply.Result, *kube.Client) {
	e.t.Helper()
	res, err := loader.Load([]string{e.dir}, loader.Options{})
	if err != nil {
		e.t.Fatal(err)
	}
	cl := e.client()
	p, err := plan.Make(context.Background(), cl, res.Objects, plan.Options{Namespace: e.ns, ApplySet: as})
	if err != nil {
		e.t.Fatalf("plan: %v", err)
	}
	r, err := apply.Reconcile(context.Background(), cl, p, apply.Options{ApplySet: as, Version: "test", Timeout: 60 * time.Second})
	if err != nil {
		e.t.Fatalf("apply: %v", err)
	}
	return p, r, cl
}

// scaleAsAutoscaler sets the Deployment's replicas through the scale
// subresource with the field manager the HPA controller uses.
func (e *env) scaleAsAutoscaler(name string, replicas int) {
	e.t.Helper()
	admin, err := kube.NewFromKubeconfig(e.c.AdminKubeconfig(), e.ns)
	if err != nil {
		e.t.Fatal(err)
	}
	gvr := schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	patch := []byte(`{"spec":{"replicas":` + strconv.Itoa(replicas) + `}}`)
	if _, err := admin.Dynamic.Resource(gvr).Namespace(e.ns).Patch(context.Background(), name, types.MergePatchType, patch,
		metav1.PatchOptions{FieldManager: "horizontal-pod-autoscaler"}, "scale"); err != nil {
		e.t.Fatalf("scaling %s: %v", name, err)
	}
}

func change(p *plan.Plan, ref string) *plan.Change {
	for i := range p.Changes {
		if p.Changes[i].Ref.String() == ref {
			return &p.Changes[i]
		}
	}
	return nil
}

// assertLeftToAutoscaler checks that, after the autoscaler scaled web to n,
// a plan shows web unchanged without a dry-run and an apply writes nothing.
func (e *env) assertLeftToAutoscaler(as *applyset.Parent, n int) {
	e.t.Helper()
	e.scaleAsAutoscaler("web", n)
	// The generation moves with every write of the spec; the resourceVersion
	// also moves with the controller's status updates after the scale.
	gen := e.get("deployment", "web", "-o", "jsonpath={.metadata.generation}")
	p, r, cl := e.runSet(as)
	web := change(p, "deployment.apps/web")
	if web == nil || web.Action != plan.Unchanged || web.Diff != "" || len(web.Drift) != 0 {
		e.t.Errorf("web after the autoscaler scaled it: %+v", web)
	}
	if p.HasChanges() {
		e.t.Errorf("plan after the autoscaler scaled web: %s", p.Summary())
	}
	if d := cl.Requests.Count("PATCH (dry-run)"); d != 0 {
		e.t.Errorf("the unchanged set took %d dry-runs, want the no-op proof", d)
	}
	if w := cl.Requests.Writes(); w != 0 || outcomes(r) != "" {
		e.t.Errorf("apply wrote %d times: %q", w, outcomes(r))
	}
	if got := e.get("deployment", "web", "-o", "jsonpath={.spec.replicas}"); got != strconv.Itoa(n) {
		e.t.Errorf("replicas after apply = %q, want the autoscaler's %d", got, n)
	}
	if got := e.get("deployment", "web", "-o", "jsonpath={.metadata.generation}"); got != gen {
		e.t.Errorf("deployment spec written: generation %s -> %s", gen, got)
	}
}

// An autoscaler that only exists in the cluster owns replicas: kubeplan
// never applies the 2 of git, and leaves the 5 the autoscaler set.
func TestIntegrationHPAInClusterOwnsReplicas(t *testing.T) {
	e := newEnv(t)
	hpaDir := t.TempDir()
	e.write("deployment.yaml", deployment("2", "nginx:1.30"))
	if err := os.WriteFile(filepath.Join(hpaDir, "hpa.yaml"), []byte(hpa), 0o644); err != nil {
		t.Fatal(err)
	}
	e.c.Kubectl(t, "-n", e.ns, "apply", "--server-side", "--field-manager=someone-else", "-f", hpaDir)

	p, r, _ := e.runSet(&e.as)
	web := change(p, "deployment.apps/web")
	// The create is shown as written, without the replicas left to the
	// autoscaler.
	if web == nil || web.Action != plan.Create || strings.Contains(web.Diff, "replicas:") {
		t.Fatalf("create of web: %+v", web)
	}
	if _, ok := web.Object["spec"].(map[string]any)["replicas"]; ok {
		t.Errorf("the object to apply still sets replicas: %v", web.Object["spec"])
	}
	if got := outcomes(r); got != "deployment.apps/web created" {
		t.Errorf("first apply: %s", got)
	}
	if got := e.get("deployment", "web", "-o", "jsonpath={.spec.replicas}"); got != "1" {
		t.Errorf("replicas after the first apply = %q, want the default 1 (git's 2 is not applied)", got)
	}
	e.assertLeftToAutoscaler(&e.as, 5)
}

// An autoscaler added to the set of a running Deployment: the replicas
// kubeplan applied before are kept (not reset to 1) until the autoscaler
// scales, and from then on belong to it.
func TestIntegrationHPAInSetOwnsReplicas(t *testing.T) {
	e := newEnv(t)
	e.write("deployment.yaml", deployment("3", "nginx:1.30"))
	e.runSet(&e.as)

	e.write("hpa.yaml", hpa)
	p, r, _ := e.runSet(&e.as)
	if web := change(p, "deployment.apps/web"); web == nil || web.Action != plan.Unchanged {
		t.Errorf("web when its autoscaler joins the set: %+v", web)
	}
	if got := outcomes(r); got != "horizontalpodautoscaler.autoscaling/web created" {
		t.Errorf("apply of the autoscaler: %s", got)
	}
	if got := e.get("deployment", "web", "-o", "jsonpath={.spec.replicas}"); got != "3" {
		t.Errorf("replicas = %q, want 3 kept through the handover", got)
	}
	e.assertLeftToAutoscaler(&e.as, 5)

	// And without an ApplySet, the same.
	e.assertLeftToAutoscaler(nil, 6)
}
