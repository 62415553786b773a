package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

// TestIntegrationSyncViaServe runs the kubeplan binary's serve as a
// ServiceAccount with a Role (in-cluster credentials, an interval of an
// hour), and kubeplan sync --via-serve as a narrow identity: the request
// on the parent is run by serve within seconds, sync prints serve's
// answer, and the commit is applied by serve's identity. Suspended, the
// project is refused before anything is asked, and serve skips it.
func TestIntegrationSyncViaServe(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	env := serviceAccount(t, c, ns)
	bin := testkube.Kubeplan(t)
	kc := c.Narrow(t, "sync", ns)
	g := newGitRepo(t)
	cfg := fmt.Sprintf("projects:\n  - name: app\n    path: app\n    namespace: %s\n    applyset: configmap/app-set\n", ns)
	settings := func(v string) string {
		return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  value: " + v + "\n"
	}
	g.commit("first", map[string]string{"kubeplan.yaml": cfg, "app/settings.yaml": settings("a")})
	a := startServe(t, bin, env, "serve", "--source", g.bare, "--ref", "main", "--interval", "1h")
	value := func() string {
		out, _ := c.TryKubectl("get", "configmap", "settings", "-n", ns, "-o", "jsonpath={.metadata.managedFields[0].manager}/{.data.value}")
		return out
	}
	eventually(t, "the first commit applied by serve", func() bool { return value() == "kubeplan/a" }, a.logText)

	g.commit("b", map[string]string{"app/settings.yaml": settings("b")})
	start := time.Now()
	code, out, errs := cli("sync", "--kubeconfig", kc, "-n", ns, "--applyset", "configmap/app-set", "--via-serve", "--serve-timeout", "60s")
	if code != 0 || !strings.Contains(out, "configmap/app-set in namespace "+ns+" synced by kubeplan serve at ") || !strings.HasSuffix(strings.TrimSpace(out), ": ok") {
		t.Fatalf("sync --via-serve: exit %d\n%s\n%s\n%s", code, out, errs, a.logText())
	}
	if took := time.Since(start); took > 30*time.Second {
		t.Errorf("serve took %s to run the request", took)
	}
	if v := value(); v != "kubeplan/b" {
		t.Fatalf("after the sync the ConfigMap is %q: serve did not apply the commit\n%s", v, a.logText())
	}
	if !strings.Contains(a.logText(), "sync requested for [app]: running now") {
		t.Errorf("serve's log does not say it ran the request:\n%s", a.logText())
	}

	if code, out, errs := cli("suspend", "--kubeconfig", kc, "-n", ns, "--applyset", "configmap/app-set", "--reason", "incident 123"); code != 0 {
		t.Fatalf("suspend: exit %d\n%s\n%s", code, out, errs)
	}
	code, out, errs = cli("sync", "--kubeconfig", kc, "-n", ns, "--applyset", "configmap/app-set", "--via-serve")
	if code != 1 || !strings.Contains(errs, `is suspended by sync-`+ns+`: "incident 123"`) {
		t.Fatalf("sync --via-serve of a suspended set: exit %d\n%s\n%s", code, out, errs)
	}
	if a, _ := c.TryKubectl("get", "configmap", "app-set", "-n", ns, "-o", `jsonpath={.metadata.annotations.kubeplan\.dev/sync-requested}`); a != "" {
		t.Errorf("the refused sync left a request: %s", a)
	}
}
