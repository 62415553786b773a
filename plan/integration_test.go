package plan_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/manifest/loader"
	"github.com/kubeplan/kubeplan/plan"
)

func TestMain(m *testing.M) { testkube.Main(m) }

const seedDeployment = `apiVersion: apps/v1
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
      - name: web
        image: nginx:1.30
`
const seedService = `apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector: {app: web}
  ports:
  - port: 80
    targetPort: 80
`
const seedConfigMap = `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  currency: EUR
`

func writeSet(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for n, b := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func load(t *testing.T, dir string) []*manifest.Object {
	t.Helper()
	res, err := loader.Load([]string{dir}, loader.Options{})
	if err != nil || len(res.Problems) > 0 {
		t.Fatalf("loading %s: %v %v", dir, err, res.Problems)
	}
	return res.Objects
}

func client(t *testing.T, kubeconfig, ns string) *kube.Client {
	t.Helper()
	c, err := kube.NewFromKubeconfig(kubeconfig, ns)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// narrow mints the seed's identity: a user bound to edit in ns only.
func narrow(t *testing.T, c *testkube.Cluster, ns string) string {
	t.Helper()
	kc := c.Narrow(t, "gitops", ns)
	return kc
}

func summary(p *plan.Plan) string { return p.Summary().String() }

func find(p *plan.Plan, ref string) *plan.Change {
	for i := range p.Changes {
		if p.Changes[i].Ref.String() == ref {
			return &p.Changes[i]
		}
	}
	return nil
}

func TestIntegrationPlanSeed(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	kc := narrow(t, c, ns)
	ctx := context.Background()
	as := applyset.Parent{Kind: "ConfigMap", Name: "gitops-applyset", Namespace: ns}
	opts := plan.Options{Namespace: ns, ApplySet: &as}
	dir := writeSet(t, map[string]string{"deployment.yaml": seedDeployment, "service.yaml": seedService, "configmap.yaml": seedConfigMap})

	// A new set: three to add, nothing written.
	cl := client(t, kc, ns)
	p, err := plan.Make(ctx, cl, load(t, dir), opts)
	if err != nil {
		t.Fatalf("plan of a new set with the narrow identity: %v", err)
	}
	if got := summary(p); got != "Plan: 3 to add, 0 to change, 0 to prune, 0 unchanged." {
		t.Errorf("new set: %s", got)
	}
	if d := find(p, "deployment.apps/web"); d == nil || !strings.Contains(d.Diff, "+  replicas: 2") || d.Source.File != filepath.Join(dir, "deployment.yaml") {
		t.Errorf("create diff/source: %+v", d)
	}
	if w := cl.Requests.Writes(); w != 0 {
		t.Errorf("planning made %d write requests", w)
	}
	// What the identity's rules in the namespace grant is known from one
	// SelfSubjectRulesReview; only the rest is asked one by one.
	if n := cl.Requests.Count("POST (review)"); n != 1 {
		t.Errorf("the permission check made %d reviews, want the one rules review", n)
	}

	// Applied by kubectl into the same ApplySet (as the seed does), with
	// kubeplan's field manager: kubeplan refuses the foreign set unless
	// adopting, and then sees no change at all.
	t.Setenv("KUBECTL_APPLYSET", "true")
	c.Kubectl(t, "--kubeconfig", kc, "-n", ns, "apply", "--server-side", "--field-manager=kubeplan", "--prune", "--applyset=configmap/gitops-applyset", "-f", dir)
	if _, err := plan.Make(ctx, client(t, kc, ns), load(t, dir), opts); err == nil || !strings.Contains(err.Error(), "kubectl") {
		t.Errorf("foreign ApplySet not refused: %v", err)
	}
	opts.Adopt = true
	cl = client(t, kc, ns)
	p, err = plan.Make(ctx, cl, load(t, dir), opts)
	if err != nil {
		t.Fatal(err)
	}
	// The live objects hold exactly what kubeplan's manager applied: no
	// dry-run is needed to know that nothing changes.
	if n := cl.Requests.Count("PATCH (dry-run)"); n != 0 {
		t.Errorf("a plan with nothing to change made %d dry-runs", n)
	}
	if got := summary(p); got != "Plan: 0 to add, 0 to change, 0 to prune, 3 unchanged." || p.HasChanges() {
		t.Errorf("applied set: %s", got)
	}
	for _, ch := range p.Changes {
		if ch.Diff != "" || len(ch.Drift) > 0 {
			t.Errorf("%s: unexpected diff %q drift %v", ch.Ref, ch.Diff, ch.Drift)
		}
	}

	// Hand edits: kubectl scale shows up as drift naming its manager, and as
	// the change that takes it back.
	c.Kubectl(t, "-n", ns, "scale", "deployment/web", "--replicas=6")
	c.Kubectl(t, "-n", ns, "create", "configmap", "made-by-hand", "--from-literal=a=b")
	p, err = plan.Make(ctx, client(t, kc, ns), load(t, dir), opts)
	if err != nil {
		t.Fatal(err)
	}
	web := find(p, "deployment.apps/web")
	if web == nil || web.Action != plan.Update || len(web.Drift) != 1 {
		t.Fatalf("scaled deployment: %+v", web)
	}
	if d := web.Drift[0]; d.Field != "spec.replicas" || d.Live != "6" || d.Want != "2" || !strings.Contains(d.Manager, "kubectl") {
		t.Errorf("drift = %+v", d)
	}
	if !strings.Contains(web.Diff, "-  replicas: 6") || !strings.Contains(web.Diff, "+  replicas: 2") {
		t.Errorf("drift diff:\n%s", web.Diff)
	}

	// A removed file is a prune; the hand-made ConfigMap and the parent never are.
	os.Remove(filepath.Join(dir, "configmap.yaml"))
	p, err = plan.Make(ctx, client(t, kc, ns), load(t, dir), opts)
	if err != nil {
		t.Fatal(err)
	}
	var pruned []string
	for _, ch := range p.Changes {
		if ch.Action == plan.Prune {
			pruned = append(pruned, ch.Ref.String())
		}
	}
	if strings.Join(pruned, ",") != "configmap/settings" {
		t.Errorf("pruned %v, want exactly configmap/settings", pruned)
	}
}

func TestIntegrationPlanPermissionsAndSecrets(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	kc := narrow(t, c, ns)
	ctx := context.Background()
	dir := writeSet(t, map[string]string{"deployment.yaml": seedDeployment,
		"secret.yaml": "apiVersion: v1\nkind: Secret\nmetadata: {name: creds}\nstringData: {password: hunter2}\n"})

	// Into a namespace the identity may not write: every missing permission.
	other := c.Namespace(t)
	as := applyset.Parent{Kind: "ConfigMap", Name: "set", Namespace: other}
	_, err := plan.Make(ctx, client(t, kc, other), load(t, dir), plan.Options{Namespace: other, ApplySet: &as})
	var missing plan.MissingPermissions
	if !errors.As(err, &missing) {
		t.Fatalf("forbidden namespace: %v", err)
	}
	msg := err.Error()
	for _, want := range []string{"kubectl auth can-i patch deployments.apps -n " + other, "kubectl auth can-i create secrets -n " + other, "kubectl auth can-i get configmaps/set -n " + other, "leases.coordination.k8s.io"} {
		if !strings.Contains(msg, want) {
			t.Errorf("missing permissions message lacks %q:\n%s", want, msg)
		}
	}

	// Secret values never appear in the plan's diffs.
	p, err := plan.Make(ctx, client(t, kc, ns), load(t, dir), plan.Options{Namespace: ns})
	if err != nil {
		t.Fatal(err)
	}
	s := find(p, "secret/creds")
	if s == nil || s.Action != plan.Create || !strings.Contains(s.Diff, "***") || strings.Contains(s.Diff, "hunter2") {
		t.Errorf("secret change: %+v", s)
	}
}

func TestIntegrationPlanCRDEditAndImmutable(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	ctx := context.Background()
	admin := client(t, c.AdminKubeconfig(), ns)

	// A CRD and its custom resource in the same change: the resource is
	// planned as created after its CRD instead of failing the dry-run.
	crd := `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.` + ns + `.example.com}
spec:
  group: ` + ns + `.example.com
  names: {kind: Widget, plural: widgets, singular: widget}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {size: {type: integer}}}
`
	cr := "apiVersion: " + ns + ".example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: 3}\n"
	dir := writeSet(t, map[string]string{"crd.yaml": crd, "widget.yaml": cr})
	p, err := plan.Make(ctx, admin, load(t, dir), plan.Options{Namespace: ns})
	if err != nil {
		t.Fatalf("CRD and resource in one plan: %v", err)
	}
	w := find(p, "widget."+ns+".example.com/w")
	if w == nil || w.Action != plan.Create || !w.AfterCRD || find(p, "customresourcedefinition.apiextensions.k8s.io/widgets."+ns+".example.com") == nil {
		t.Errorf("custom resource after its CRD: %+v\n%+v", w, p.Changes)
	}

	// kubectl edit is drift, named after its manager.
	cm := writeSet(t, map[string]string{"configmap.yaml": seedConfigMap})
	c.Kubectl(t, "-n", ns, "apply", "--server-side", "--field-manager=kubeplan", "-f", cm)
	t.Setenv("KUBE_EDITOR", "sed -i s/EUR/USD/")
	c.Kubectl(t, "-n", ns, "edit", "configmap", "settings")
	p, err = plan.Make(ctx, admin, load(t, cm), plan.Options{Namespace: ns})
	if err != nil {
		t.Fatal(err)
	}
	s := find(p, "configmap/settings")
	if s == nil || len(s.Drift) != 1 || s.Drift[0].Field != "data.currency" || s.Drift[0].Live != "USD" || s.Drift[0].Want != "EUR" || s.Drift[0].Manager != "kubectl-edit" {
		t.Errorf("kubectl edit drift: %+v", s)
	}

	// Changing an immutable field is a replace naming the field.
	dep := writeSet(t, map[string]string{"deployment.yaml": seedDeployment})
	c.Kubectl(t, "-n", ns, "apply", "--server-side", "--field-manager=kubeplan", "-f", dep)
	moved := strings.ReplaceAll(seedDeployment, "app: web", "app: web2")
	os.WriteFile(filepath.Join(dep, "deployment.yaml"), []byte(moved), 0o644)
	p, err = plan.Make(ctx, admin, load(t, dep), plan.Options{Namespace: ns})
	if err != nil {
		t.Fatalf("immutable change: %v", err)
	}
	if d := find(p, "deployment.apps/web"); d == nil || d.Action != plan.Replace || d.Reason != "spec.selector is immutable" || d.Source.File != filepath.Join(dep, "deployment.yaml") {
		t.Errorf("immutable change: %+v", d)
	}
}
