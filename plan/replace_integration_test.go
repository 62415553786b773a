package plan_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
	"github.com/kubeplan/kubeplan/plan"
)

// fixedIPService asks for a fixed clusterIP. The tests take them from the
// bottom 16 addresses of testcluster's 10.0.0.0/24, which the API server
// keeps for static addresses (dynamic ones come from the rest), so that a
// Service another test made can never hold one.
const fixedIPService = `apiVersion: v1
kind: Service
metadata:
  name: api
spec:
  clusterIP: CLUSTERIP
  ports:
  - port: 80
`

const claim = `apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
spec:
  accessModes: [MODE]
  resources: {requests: {storage: 1Gi}}
`

// A Service whose clusterIP changes and a Deployment whose selector changes
// are replaced; the rest of the set is still planned.
func TestIntegrationPlanReplace(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	ctx := context.Background()
	svc := func(ip string) string { return strings.ReplaceAll(fixedIPService, "CLUSTERIP", ip) }
	dir := writeSet(t, map[string]string{"service.yaml": svc("10.0.0.11"), "deployment.yaml": seedDeployment, "configmap.yaml": seedConfigMap})
	c.Kubectl(t, "-n", ns, "apply", "--server-side", "--field-manager=kubeplan", "-f", dir)

	rewrite(t, dir, "service.yaml", svc("10.0.0.12"))
	rewrite(t, dir, "deployment.yaml", strings.ReplaceAll(seedDeployment, "app: web", "app: web2"))
	rewrite(t, dir, "configmap.yaml", strings.ReplaceAll(seedConfigMap, "EUR", "USD"))
	kc := c.Narrow(t, "gitops", ns)
	p, err := plan.Make(ctx, client(t, kc, ns), load(t, dir), plan.Options{Namespace: ns})
	if err != nil {
		t.Fatalf("plan with immutable changes: %v", err)
	}
	if got := summary(p); got != "Plan: 0 to add, 1 to change, 2 to replace, 0 to prune, 0 unchanged." || !p.HasChanges() {
		t.Errorf("summary: %s", got)
	}
	s := find(p, "service/api")
	if s == nil || s.Action != plan.Replace || s.Reason != "spec.clusterIPs[0] is immutable" ||
		!strings.Contains(s.Diff, "-  clusterIP: 10.0.0.11") || !strings.Contains(s.Diff, "+  clusterIP: 10.0.0.12") {
		t.Errorf("service: %+v", s)
	}
	d := find(p, "deployment.apps/web")
	if d == nil || d.Action != plan.Replace || d.Reason != "spec.selector is immutable" || !strings.Contains(d.Diff, "+      app: web2") {
		t.Errorf("deployment: %+v", d)
	}
	// Only what kubeplan applied is compared: the defaults the server fills
	// in again on the create are not shown as removed.
	for _, ch := range []*plan.Change{s, d} {
		for _, noise := range []string{"sessionAffinity", "clusterIPs", "progressDeadlineSeconds", "terminationMessagePath", "uid:"} {
			if ch != nil && strings.Contains(ch.Diff, noise) {
				t.Errorf("%s: replace diff shows %s:\n%s", ch.Ref, noise, ch.Diff)
			}
		}
	}
	if cm := find(p, "configmap/settings"); cm == nil || cm.Action != plan.Update || !strings.Contains(cm.Diff, "+  currency: USD") {
		t.Errorf("configmap: %+v", cm)
	}
	var order []plan.Action
	for _, ch := range p.Changes {
		order = append(order, ch.Action)
	}
	if order[0] != plan.Update || order[1] != plan.Replace || order[2] != plan.Replace {
		t.Errorf("order %v: replace comes after update", order)
	}
}

// A PersistentVolumeClaim is never replaced: its change is an error saying
// why, naming the file.
func TestIntegrationPlanNeverReplacesClaims(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	dir := writeSet(t, map[string]string{"claim.yaml": strings.ReplaceAll(claim, "MODE", "ReadWriteOnce"), "configmap.yaml": seedConfigMap})
	c.Kubectl(t, "-n", ns, "apply", "--server-side", "--field-manager=kubeplan", "-f", dir)
	rewrite(t, dir, "claim.yaml", strings.ReplaceAll(claim, "MODE", "ReadWriteMany"))
	_, err := plan.Make(context.Background(), client(t, c.AdminKubeconfig(), ns), load(t, dir), plan.Options{Namespace: ns})
	var errs plan.Errors
	if !errors.As(err, &errs) || len(errs) != 1 {
		t.Fatalf("claim change: %v", err)
	}
	msg := errs[0].Error()
	for _, want := range []string{filepath.Join(dir, "claim.yaml") + ":1:1", "persistentvolumeclaim/data", "spec is immutable",
		"never replaces a PersistentVolumeClaim", "data on it"} {
		if !strings.Contains(msg, want) {
			t.Errorf("claim error lacks %q: %s", want, msg)
		}
	}
}

func rewrite(t *testing.T, dir, name, body string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// An identity that may apply a Service but not delete it cannot plan its
// replacement: the plan says which permission is missing.
func TestIntegrationPlanReplaceNeedsDelete(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	svc := func(ip string) string { return strings.ReplaceAll(fixedIPService, "CLUSTERIP", ip) }
	dir := writeSet(t, map[string]string{"service.yaml": svc("10.0.0.13")})
	c.Kubectl(t, "-n", ns, "apply", "--server-side", "--field-manager=kubeplan", "-f", dir)
	rewrite(t, dir, "service.yaml", svc("10.0.0.14"))

	user := "nodelete-" + ns
	kc := c.User(t, user)
	c.Kubectl(t, "-n", ns, "create", "role", "apply-services", "--verb=get,list,create,patch", "--resource=services")
	c.Kubectl(t, "-n", ns, "create", "rolebinding", user, "--role=apply-services", "--user="+user)
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if out, _ := c.TryKubectl("--kubeconfig", kc, "auth", "can-i", "patch", "services", "-n", ns); strings.TrimSpace(out) == "yes" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the role binding did not take effect")
		}
	}
	_, err := plan.Make(context.Background(), client(t, kc, ns), load(t, dir), plan.Options{Namespace: ns})
	var missing plan.MissingPermissions
	if !errors.As(err, &missing) || len(missing) != 1 || missing[0].Verb != "delete" || missing[0].Resource != "services" || missing[0].Name != "api" {
		t.Fatalf("plan without delete permission: %v", err)
	}
	if !strings.Contains(err.Error(), "replace service/api") {
		t.Errorf("the missing permission does not say what needs it: %v", err)
	}
}
