package apply_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/manifest/loader"
	"github.com/kubeplan/kubeplan/plan"
)

func fixedIPService(ip, annotations string) string {
	return "apiVersion: v1\nkind: Service\nmetadata:\n  name: api\n" + annotations + "spec:\n  clusterIP: " + ip + "\n  ports:\n  - port: 80\n"
}

// Immutable changes: apply refuses them, writing nothing, until they are
// allowed (Options.Replace or the annotation); then it deletes and creates
// the objects again. A claim is never replaced.
func TestIntegrationReplace(t *testing.T) {
	e := newEnv(t)
	e.write("deployment.yaml", deployment("2", "nginx:1.30"))
	e.write("service.yaml", fixedIPService("10.0.0.2", ""))
	e.write("configmap.yaml", settings)
	if _, _, err := e.run(plan.Options{}, apply.Options{}); err != nil {
		t.Fatal(err)
	}
	uid := func(kind, name string) string { return e.get(kind, name, "-o", "jsonpath={.metadata.uid}") }
	depUID, svcUID := uid("deployment", "web"), uid("service", "api")

	e.write("deployment.yaml", strings.ReplaceAll(deployment("2", "nginx:1.30"), "app: web", "app: web2"))
	e.write("service.yaml", fixedIPService("10.0.0.3", ""))
	e.write("configmap.yaml", strings.ReplaceAll(settings, "EUR", "USD"))

	// Not allowed: refused before any write, the objects named with both ways to allow it.
	r, cl, err := e.run(plan.Options{}, apply.Options{Replace: []string{"service/api"}})
	if !errors.Is(err, apply.ErrReplaceNotAllowed) || r != nil {
		t.Fatalf("unallowed replace: %v %+v", err, r)
	}
	for _, want := range []string{"deployment.apps/web (spec.selector is immutable)", "--replace deployment.apps/web", "kubeplan.dev/replace: allow"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("refusal lacks %q: %v", want, err)
		}
	}
	if w := cl.Requests.Writes(); w != 0 {
		t.Errorf("a refused apply made %d writes", w)
	}
	if uid("deployment", "web") != depUID || uid("service", "api") != svcUID || e.get("configmap", "settings", "-o", "jsonpath={.data.currency}") != "EUR" {
		t.Error("a refused apply changed the cluster")
	}

	// Allowed by name (any case, with or without the group): deleted and created again.
	r, _, err = e.run(plan.Options{}, apply.Options{Replace: []string{"Deployment.apps/web", "service/api"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := outcomes(r); got != "configmap/settings configured, deployment.apps/web replaced, service/api replaced" {
		t.Errorf("outcomes: %s", got)
	}
	if got := uid("deployment", "web"); got == depUID || got == "" {
		t.Errorf("deployment uid %q, was %q: not recreated", got, depUID)
	}
	if got := uid("service", "api"); got == svcUID || got == "" {
		t.Errorf("service uid %q, was %q: not recreated", got, svcUID)
	}
	if got := e.get("service", "api", "-o", "jsonpath={.spec.clusterIP}"); got != "10.0.0.3" {
		t.Errorf("clusterIP %q", got)
	}
	if got := e.get("deployment", "web", "-o", "jsonpath={.spec.selector.matchLabels.app} {.status.readyReplicas}"); got != "web2 2" {
		t.Errorf("deployment selector and ready replicas: %q", got)
	}

	// Allowed by the annotation in the manifest.
	svcUID = uid("service", "api")
	e.write("service.yaml", fixedIPService("10.0.0.4", "  annotations: {kubeplan.dev/replace: allow}\n"))
	if r, _, err = e.run(plan.Options{}, apply.Options{}); err != nil || outcomes(r) != "service/api replaced" {
		t.Fatalf("annotated replace: %v %+v", err, r)
	}
	if uid("service", "api") == svcUID || e.get("service", "api", "-o", "jsonpath={.spec.clusterIP}") != "10.0.0.4" {
		t.Error("annotated service not recreated with its new clusterIP")
	}

	// An object that changed after the plan was made is not deleted.
	svcUID = uid("service", "api")
	e.write("service.yaml", fixedIPService("10.0.0.5", "  annotations: {kubeplan.dev/replace: allow}\n"))
	objs, err := loader.Load([]string{e.dir}, loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cl = e.client()
	p, err := plan.Make(context.Background(), cl, objs.Objects, plan.Options{Namespace: e.ns, ApplySet: &e.as})
	if err != nil {
		t.Fatal(err)
	}
	e.c.Kubectl(t, "-n", e.ns, "annotate", "service", "api", "edited=later")
	_, err = apply.Execute(context.Background(), cl, p, apply.Options{ApplySet: &e.as, Version: "test"})
	if err == nil || !strings.Contains(err.Error(), "service/api changed since the plan was made; not replaced") {
		t.Errorf("replace of a changed object: %v", err)
	}
	if uid("service", "api") != svcUID {
		t.Error("an object that changed since the plan was replaced")
	}
	e.write("service.yaml", fixedIPService("10.0.0.4", "  annotations: {kubeplan.dev/replace: allow}\n"))

	// A claim is never replaced, even when allowed.
	claim := "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: data\nspec:\n  accessModes: [MODE]\n  resources: {requests: {storage: 1Gi}}\n"
	e.write("claim.yaml", strings.ReplaceAll(claim, "MODE", "ReadWriteOnce"))
	// Applied by kubectl: no volume binder runs here, so the claim never becomes healthy.
	e.c.Kubectl(t, "-n", e.ns, "apply", "--server-side", "--field-manager=kubeplan", "-f", filepath.Join(e.dir, "claim.yaml"))
	claimUID := uid("pvc", "data")
	e.write("claim.yaml", strings.ReplaceAll(claim, "MODE", "ReadWriteMany"))
	_, _, err = e.run(plan.Options{}, apply.Options{Replace: []string{"persistentvolumeclaim/data"}})
	if err == nil || !strings.Contains(err.Error(), "spec is immutable") || !strings.Contains(err.Error(), "never replaces a PersistentVolumeClaim") {
		t.Errorf("claim change: %v", err)
	}
	if uid("pvc", "data") != claimUID {
		t.Error("the claim was replaced")
	}
}
