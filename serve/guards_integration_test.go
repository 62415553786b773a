package serve_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/serve"
	"github.com/kubeplan/kubeplan/source"
)

// TestIntegrationServeGuards: serve never approves. A commit that
// updates a ConfigMap and prunes a PersistentVolumeClaim applies the
// update and holds the prune back (the claim stays, a member), reported
// by an ApprovalPending Event, the kubeplan_pending_approvals metric and
// the parent's record; a commit a rule denies writes nothing; a project
// whose change windows are closed waits, writes nothing and is not a
// failure.
func TestIntegrationServeGuards(t *testing.T) {
	testkube.Integration(t)
	t.Setenv("KUBEPLAN_CACHE_DIR", t.TempDir())
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	g := newRepo(t)
	cfg := fmt.Sprintf(`guards:
  rules:
    - name: no-public-load-balancers
      expression: change.kind == 'Service' && has(change.after.spec.type) && change.after.spec.type == 'LoadBalancer'
      outcome: deny
      message: use the shared ingress
projects:
  - name: app
    path: app
    namespace: %[1]s
    applyset: configmap/app-set
    interval: 1s
  - name: frozen
    path: frozen
    namespace: %[1]s
    applyset: configmap/frozen-set
    interval: 1s
    windows:
      - {kind: deny, schedule: "* * * * *", duration: 5m}
`, ns)
	pvc := "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: data\nspec:\n  accessModes: [ReadWriteOnce]\n  resources:\n    requests:\n      storage: 1Gi\n"
	g.commit("first", map[string]string{"kubeplan.yaml": cfg, "app/settings.yaml": configMap("settings", "a"), "app/data.yaml": pvc,
		"frozen/settings.yaml": configMap("frozen-settings", "a")})

	connect := func(project.Project) (*kube.Client, string, error) {
		cl, err := kube.NewFromKubeconfig(c.AdminKubeconfig(), ns)
		return cl, "test", err
	}
	var rs results
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- serve.Run(ctx, serve.Options{
			Source:   source.Git{URL: g.bare, Ref: "main"},
			Interval: time.Hour,
			Listen:   "127.0.0.1:0",
			Connect:  connect,
			Plan:     plan.Options{FieldManager: "kubeplan"},
			Apply:    apply.Options{FieldManager: "kubeplan", Version: "test", Wait: false},
			OnRun:    rs.add,
			Log:      testWriter{t},
		}, func(a fmt.Stringer) { addr <- a.String() })
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve.Run: %v", err)
		}
	}()
	base := "http://" + <-addr
	get := func(args ...string) string {
		out, _ := c.TryKubectl(append([]string{"-n", ns, "get", "--ignore-not-found"}, args...)...)
		return strings.TrimSpace(out)
	}

	_, n := rs.wait(t, 0, "applying the first commit", func(r serve.RunResult) bool { return r.Project == "app" && r.Err == nil && r.Applied == 2 })
	frozen, _ := rs.wait(t, 0, "the frozen project waiting", func(r serve.RunResult) bool { return r.Project == "frozen" })
	if frozen.Err != nil || frozen.WindowClosed == "" || frozen.Applied != 0 || get("configmap", "frozen-settings", "-o", "name") != "" {
		t.Fatalf("the frozen project: %+v", frozen)
	}
	eventOn(t, c, ns, serve.ReasonWindowClosed+"|Normal|frozen-set|", "waiting: deny window")
	if m := scrape(t, base); !strings.Contains(m, `kubeplan_change_window_closed{project="frozen"} 1`) {
		t.Errorf("metrics lack the closed window:\n%s", grepLines(m, "kubeplan_change_window"))
	}

	g.git(g.clone, "rm", "-q", "app/data.yaml")
	g.commit("the data moves out", map[string]string{"app/settings.yaml": configMap("settings", "b")})
	res, n := rs.wait(t, n, "holding the prune back", func(r serve.RunResult) bool { return r.Project == "app" && r.Withheld == 1 })
	if res.Applied != 1 || res.Pruned != 0 || res.Pending != 1 || res.Err == nil || !strings.Contains(res.Err.Error(), "protect-pvc") {
		t.Fatalf("held-back run: %+v", res)
	}
	if got := get("configmap", "settings", "-o", "jsonpath={.data.value}"); got != "b" {
		t.Errorf("the update was not applied: %q", got)
	}
	if get("persistentvolumeclaim", "data", "-o", "name") == "" || get("persistentvolumeclaim", "data", "-o", "jsonpath={.metadata.deletionTimestamp}") != "" {
		t.Fatal("serve pruned the claim without approval")
	}
	if part := get("persistentvolumeclaim", "data", "-o", "jsonpath={.metadata.labels.applyset\\.kubernetes\\.io/part-of}"); part == "" {
		t.Error("the held-back claim left the set")
	}
	if rec := get("configmap", "app-set", "-o", "jsonpath={.metadata.annotations.kubeplan\\.dev/pending-approvals}"); !strings.Contains(rec, "protect-pvc") {
		t.Errorf("the parent does not record the pending approval: %q", rec)
	}
	eventOn(t, c, ns, serve.ReasonApprovalPending+"|Warning|app-set|", "--approve protect-pvc=")
	if m := scrape(t, base); !strings.Contains(m, `kubeplan_pending_approvals{project="app"} 1`) {
		t.Errorf("metrics lack the pending approval:\n%s", grepLines(m, "kubeplan_pending"))
	}
	// Round after round: still held, and neither the parent nor the
	// claim written again (the Event's series counts the rounds).
	_, n = rs.wait(t, n, "holding it again", func(r serve.RunResult) bool { return r.Project == "app" && r.Withheld == 1 })
	rv := get("configmap", "app-set", "-o", "jsonpath={.metadata.resourceVersion}") + "/" + get("persistentvolumeclaim", "data", "-o", "jsonpath={.metadata.resourceVersion}")
	_, n = rs.wait(t, n, "holding it a third time", func(r serve.RunResult) bool { return r.Project == "app" && r.Withheld == 1 })
	if now := get("configmap", "app-set", "-o", "jsonpath={.metadata.resourceVersion}") + "/" + get("persistentvolumeclaim", "data", "-o", "jsonpath={.metadata.resourceVersion}"); now != rv {
		t.Errorf("a round that holds the prune back again wrote the parent or the claim: %s, then %s", rv, now)
	}

	g.commit("expose", map[string]string{"app/web.yaml": "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  type: LoadBalancer\n  ports:\n    - port: 80\n",
		"app/settings.yaml": configMap("settings", "c")})
	res, _ = rs.wait(t, n, "refusing the denied change", func(r serve.RunResult) bool {
		return r.Project == "app" && r.Err != nil && strings.Contains(r.Err.Error(), "no-public-load-balancers")
	})
	if res.Applied != 0 || get("service", "web", "-o", "name") != "" || get("configmap", "settings", "-o", "jsonpath={.data.value}") != "b" {
		t.Fatalf("the denied change was applied: %+v", res)
	}
	eventOn(t, c, ns, serve.ReasonDenied+"|Warning|app-set|", "no-public-load-balancers")
}

// eventOn waits for an Event whose "reason|type|parent|" starts with
// head and whose note holds text (notes of refusals have several lines).
func eventOn(t *testing.T, c *testkube.Cluster, ns, head, text string) {
	t.Helper()
	var out string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		var err error
		out, err = c.TryKubectl("get", "events.events.k8s.io", "-n", ns, "-o", "jsonpath={range .items[*]}{.reason}|{.type}|{.regarding.name}|{.note}{\"\\x00\"}{end}")
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range strings.Split(out, "\x00") {
			if strings.HasPrefix(ev, head) && strings.Contains(ev, text) {
				return
			}
		}
	}
	t.Fatalf("no Event %s with %q; events:\n%s", head, text, out)
}
