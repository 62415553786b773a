package apply_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
	"github.com/kubeplan/kubeplan/manifest/loader"
	"github.com/kubeplan/kubeplan/plan"
)

func deployment(replicas, image string) string {
	return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: ` + replicas + `
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: ` + image + "\n"
}

const service = "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  selector: {app: web}\n  ports:\n  - port: 80\n    targetPort: 80\n"
const settings = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  currency: EUR\n"

type env struct {
	t   *testing.T
	c   *testkube.Cluster
	ns  string
	kc  string
	dir string
	as  applyset.Parent
}

func newEnv(t *testing.T) *env {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	kc := c.Narrow(t, "gitops", ns)
	return &env{t: t, c: c, ns: ns, kc: kc, dir: t.TempDir(), as: applyset.Parent{Kind: "ConfigMap", Name: "gitops-applyset", Namespace: ns}}
}

func (e *env) write(name, body string) {
	if err := os.WriteFile(filepath.Join(e.dir, name), []byte(body), 0o644); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) client() *kube.Client {
	c, err := kube.NewFromKubeconfig(e.kc, e.ns)
	if err != nil {
		e.t.Fatal(err)
	}
	return c
}

// run plans and applies the directory as the narrow identity.
func (e *env) run(opts plan.Options, aopts apply.Options) (*apply.Result, *kube.Client, error) {
	e.t.Helper()
	res, err := loader.Load([]string{e.dir}, loader.Options{})
	if err != nil {
		e.t.Fatal(err)
	}
	cl := e.client()
	opts.Namespace, opts.ApplySet = e.ns, &e.as
	p, err := plan.Make(context.Background(), cl, res.Objects, opts)
	if err != nil {
		return nil, cl, err
	}
	aopts.ApplySet, aopts.Version, aopts.Wait, aopts.Timeout = &e.as, "test", true, 60*time.Second
	r, err := apply.Reconcile(context.Background(), cl, p, aopts)
	return r, cl, err
}

func outcomes(r *apply.Result) string {
	var lines []string
	for _, o := range r.Objects {
		if o.Outcome != apply.Unchanged {
			lines = append(lines, o.Ref.String()+" "+string(o.Outcome))
		}
	}
	return strings.Join(lines, ", ")
}

func (e *env) get(args ...string) string {
	out, _ := e.c.TryKubectl(append([]string{"-n", e.ns, "get"}, args...)...)
	return strings.TrimSpace(out)
}

func TestIntegrationSeedStory(t *testing.T) {
	e := newEnv(t)
	e.write("deployment.yaml", deployment("2", "nginx:1.30"))
	e.write("service.yaml", service)
	e.write("configmap.yaml", settings)

	// First apply: three created, waits until 2/2 ready.
	r, _, err := e.run(plan.Options{}, apply.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := outcomes(r); got != "configmap/settings created, deployment.apps/web created, service/web created" {
		t.Errorf("first apply: %s", got)
	}
	if got := e.get("deployment", "web", "-o", "jsonpath={.status.readyReplicas}"); got != "2" {
		t.Errorf("ready replicas after first apply: %q", got)
	}

	// No-op: zero writes.
	r, cl, err := e.run(plan.Options{}, apply.Options{})
	if err != nil || outcomes(r) != "" || cl.Requests.Writes() != 0 {
		t.Errorf("no-op apply: %v %q writes=%d", err, outcomes(r), cl.Requests.Writes())
	}

	// replicas: 3
	e.write("deployment.yaml", deployment("3", "nginx:1.30"))
	if r, _, err = e.run(plan.Options{}, apply.Options{}); err != nil || outcomes(r) != "deployment.apps/web configured" {
		t.Fatalf("replicas 3: %v %s", err, outcomes(r))
	}
	if got := e.get("deployment", "web", "-o", "jsonpath={.status.readyReplicas}"); got != "3" {
		t.Errorf("ready replicas: %q", got)
	}

	// Drift: scale by hand, delete the Service, create made-by-hand.
	e.c.Kubectl(t, "-n", e.ns, "scale", "deployment/web", "--replicas=6")
	e.c.Kubectl(t, "-n", e.ns, "delete", "service", "web")
	e.c.Kubectl(t, "-n", e.ns, "create", "configmap", "made-by-hand", "--from-literal=a=b")
	if r, _, err = e.run(plan.Options{}, apply.Options{}); err != nil || outcomes(r) != "service/web created, deployment.apps/web configured" {
		t.Fatalf("repair: %v %s", err, outcomes(r))
	}
	if got := e.get("deployment", "web", "-o", "jsonpath={.spec.replicas}"); got != "3" {
		t.Errorf("replicas after repair %q", got)
	}
	if e.get("configmap", "made-by-hand", "-o", "name") != "configmap/made-by-hand" {
		t.Error("made-by-hand did not survive")
	}

	// git rm settings: pruned, and nothing else.
	os.Remove(filepath.Join(e.dir, "configmap.yaml"))
	if r, _, err = e.run(plan.Options{}, apply.Options{}); err != nil || outcomes(r) != "configmap/settings pruned" {
		t.Fatalf("prune: %v %s", err, outcomes(r))
	}
	if e.get("configmap", "settings", "-o", "name") != "" || e.get("configmap", "made-by-hand", "-o", "name") == "" || e.get("configmap", "gitops-applyset", "-o", "name") == "" {
		t.Error("prune removed the wrong objects")
	}

	// revert: back with its data.
	e.write("configmap.yaml", settings)
	if r, _, err = e.run(plan.Options{}, apply.Options{}); err != nil || outcomes(r) != "configmap/settings created" {
		t.Fatalf("revert: %v %s", err, outcomes(r))
	}
	if got := e.get("configmap", "settings", "-o", "jsonpath={.data.currency}"); got != "EUR" {
		t.Errorf("currency %q", got)
	}

	// A change the server refuses: nothing written, 3 replicas keep running.
	rv := e.get("deployment", "web", "-o", "jsonpath={.metadata.resourceVersion}")
	e.write("deployment.yaml", deployment("4", "nginx:1.30"))
	e.write("service.yaml", strings.Replace(service, "port: 80\n", "port: 99999\n", 1))
	if _, _, err = e.run(plan.Options{}, apply.Options{}); err == nil || !strings.Contains(err.Error(), "service.yaml") {
		t.Fatalf("invalid service: %v", err)
	}
	if got := e.get("deployment", "web", "-o", "jsonpath={.metadata.resourceVersion}"); got != rv {
		t.Errorf("deployment written although another object failed (resourceVersion %s -> %s)", rv, got)
	}
	e.write("deployment.yaml", deployment("3", "nginx:1.30"))
	e.write("service.yaml", service)

	// The parent records the run.
	if got := e.get("configmap", "gitops-applyset", "-o", `jsonpath={.metadata.annotations.kubeplan\.dev/result}`); got != "ok" {
		t.Errorf("recorded result %q", got)
	}
	if got := e.get("configmap", "gitops-applyset", "-o", `jsonpath={.metadata.annotations.applyset\.kubernetes\.io/contains-group-kinds}`); got != "ConfigMap,Deployment.apps,Service" {
		t.Errorf("parent group kinds %q", got)
	}
}

func TestIntegrationSafety(t *testing.T) {
	e := newEnv(t)
	e.write("configmap.yaml", settings)
	e.write("keep.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: keep}\n")
	if _, _, err := e.run(plan.Options{}, apply.Options{}); err != nil {
		t.Fatal(err)
	}
	// An annotation protects an object from prune: it is released (kept,
	// without the set's label) instead.
	e.c.Kubectl(t, "-n", e.ns, "annotate", "configmap", "keep", "kubeplan.dev/prune=disabled")
	os.Remove(filepath.Join(e.dir, "keep.yaml"))
	r, _, err := e.run(plan.Options{}, apply.Options{})
	if err != nil || outcomes(r) != "configmap/keep "+string(apply.Released) || e.get("configmap", "keep", "-o", "name") == "" {
		t.Errorf("protected object: %v %s", err, outcomes(r))
	}
	// An empty set is refused unless explicitly allowed.
	os.Remove(filepath.Join(e.dir, "configmap.yaml"))
	e.write("nothing.yaml", "# all gone\n")
	if _, _, err := e.run(plan.Options{}, apply.Options{}); !errors.Is(err, apply.ErrEmptySet) {
		t.Errorf("empty set: %v", err)
	}
	if e.get("configmap", "settings", "-o", "name") == "" {
		t.Error("settings pruned by an empty set")
	}
	if r, _, err := e.run(plan.Options{}, apply.Options{AllowEmpty: true}); err != nil || outcomes(r) != "configmap/settings pruned" {
		t.Errorf("--allow-empty: %v %s", err, outcomes(r))
	}

	// A health failure names the object and the reason.
	e.write("bad.yaml", strings.Replace(deployment("1", "nginx:doesnotexist"), "name: web", "name: bad", 1))
	res, _ := loader.Load([]string{e.dir}, loader.Options{})
	cl := e.client()
	p, err := plan.Make(context.Background(), cl, res.Objects, plan.Options{Namespace: e.ns, ApplySet: &e.as})
	if err != nil {
		t.Fatal(err)
	}
	_, err = apply.Execute(context.Background(), cl, p, apply.Options{ApplySet: &e.as, Wait: true, Timeout: 8 * time.Second})
	if err == nil || !strings.Contains(err.Error(), "deployment.apps/bad: 0/1 available: ImagePullBackOff") {
		t.Errorf("health failure: %v", err)
	}
	if got := e.get("configmap", "gitops-applyset", "-o", `jsonpath={.metadata.annotations.kubeplan\.dev/result}`); got != "failed" {
		t.Errorf("recorded result %q", got)
	}

	// A stale plan is refused before any write.
	p, err = plan.Make(context.Background(), cl, res.Objects, plan.Options{Namespace: e.ns, ApplySet: &e.as})
	if err != nil {
		t.Fatal(err)
	}
	e.c.Kubectl(t, "-n", e.ns, "scale", "deployment/bad", "--replicas=2")
	var stale *plan.StaleError
	if err := plan.CheckFresh(context.Background(), cl, p); !errors.As(err, &stale) || !strings.Contains(err.Error(), "deployment.apps/bad was modified") {
		t.Errorf("stale plan: %v", err)
	}
}

func TestIntegrationAdoptKubectlSet(t *testing.T) {
	e := newEnv(t)
	e.write("configmap.yaml", settings)
	e.write("service.yaml", service)
	t.Setenv("KUBECTL_APPLYSET", "true")
	e.c.Kubectl(t, "--kubeconfig", e.kc, "-n", e.ns, "apply", "--server-side", "--prune", "--applyset=configmap/gitops-applyset", "-f", e.dir)
	e.c.Kubectl(t, "-n", e.ns, "create", "configmap", "made-by-hand")
	os.Remove(filepath.Join(e.dir, "service.yaml"))
	if _, _, err := e.run(plan.Options{}, apply.Options{}); err == nil || !strings.Contains(err.Error(), "--adopt") {
		t.Fatalf("foreign set not refused: %v", err)
	}
	r, _, err := e.run(plan.Options{Adopt: true}, apply.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := outcomes(r); got != "configmap/settings configured, service/web pruned" {
		t.Errorf("adoption: %s", got)
	}
	if e.get("configmap", "made-by-hand", "-o", "name") == "" {
		t.Error("adoption pruned an object kubectl never put in the set")
	}
	if got := e.get("configmap", "gitops-applyset", "-o", `jsonpath={.metadata.annotations.applyset\.kubernetes\.io/tooling}`); got != "kubeplan/test" {
		t.Errorf("tooling after adoption %q", got)
	}
}
