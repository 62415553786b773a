package serve_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/serve"
	"github.com/kubeplan/kubeplan/source"
)

// TestIntegrationServeSuspend runs serve in-process with a narrow
// identity (the edit role in one namespace). A suspended project is
// skipped round after round with the outcome "suspended": not a failure,
// nothing written (its objects' and its parent's resourceVersions stay),
// kubeplan_suspended set; resumed, the commit it skipped is applied. A
// sync request on the parent of a project whose interval is an hour is
// run within seconds and answered on the parent; so is such a project
// once resumed.
func TestIntegrationServeSuspend(t *testing.T) {
	testkube.Integration(t)
	t.Setenv("KUBEPLAN_CACHE_DIR", t.TempDir())
	defer serve.SetSyncPoll(200 * time.Millisecond)()
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	kc := c.Narrow(t, "serve-suspend", ns)
	g := newRepo(t)
	cfg := fmt.Sprintf(`projects:
  - name: app
    path: app
    namespace: %[1]s
    applyset: configmap/app-set
    interval: 1s
  - name: web
    path: web
    namespace: %[1]s
    applyset: configmap/web-set
    interval: 1h
`, ns)
	g.commit("first", map[string]string{"kubeplan.yaml": cfg, "app/settings.yaml": configMap("settings", "a"), "web/web.yaml": configMap("web", "a")})
	connect := func(project.Project) (*kube.Client, string, error) {
		cl, err := kube.NewFromKubeconfig(kc, ns)
		return cl, "test", err
	}
	cl, err := kube.NewFromKubeconfig(kc, ns)
	if err != nil {
		t.Fatal(err)
	}
	var rs results
	base := runServe(t, serve.Options{
		Source: source.Git{URL: g.bare, Ref: "main"}, Interval: time.Hour, Listen: "127.0.0.1:0", Connect: connect,
		Plan:  plan.Options{FieldManager: "kubeplan"},
		Apply: apply.Options{FieldManager: "kubeplan", Version: "test", Wait: false},
		OnRun: rs.add, Log: testWriter{t},
	})
	get := func(args ...string) string {
		out, _ := c.TryKubectl(append([]string{"-n", ns, "get", "--ignore-not-found"}, args...)...)
		return strings.TrimSpace(out)
	}
	_, n := rs.wait(t, 0, "applying app", func(r serve.RunResult) bool { return r.Project == "app" && r.Err == nil && r.Applied == 1 })
	rs.wait(t, 0, "applying web", func(r serve.RunResult) bool { return r.Project == "web" && r.Err == nil && r.Applied == 1 })

	appSet := applyset.Parent{Kind: "ConfigMap", Name: "app-set", Namespace: ns}
	if _, err := apply.Suspend(context.Background(), cl, appSet, plan.Suspension{By: "alice", Reason: "incident 123"}); err != nil {
		t.Fatal(err)
	}
	versions := func() string {
		return get("configmap", "settings", "app-set", "-o", "jsonpath={.items[*].metadata.resourceVersion}")
	}
	before := versions()
	sha := g.commit("app: b", map[string]string{"app/settings.yaml": configMap("settings", "b")})
	res, n := rs.wait(t, n, "skipping the suspended app", func(r serve.RunResult) bool { return r.Project == "app" && r.Revision == sha })
	if res.Err != nil || res.Outcome() != "suspended" || !strings.Contains(res.Suspended, `by alice: "incident 123"`) || res.Applied != 0 {
		t.Fatalf("the suspended project's run: %+v", res)
	}
	_, n = rs.wait(t, n, "skipping it again", func(r serve.RunResult) bool { return r.Project == "app" && r.Outcome() == "suspended" })
	if after := versions(); after != before || get("configmap", "settings", "-o", "jsonpath={.data.value}") != "a" {
		t.Fatalf("serve wrote to the suspended project: resourceVersions %s -> %s", before, after)
	}
	if m := scrape(t, base); !strings.Contains(m, `kubeplan_suspended{project="app"} 1`) || !strings.Contains(m, `kubeplan_run_result{project="app"} 1`) ||
		strings.Contains(m, `kubeplan_run_failures_total{project="app"`) {
		t.Fatalf("metrics of the suspended project:\n%s", grepLines(m, `project="app"`))
	}

	if _, err := apply.Resume(context.Background(), cl, appSet, "bob"); err != nil {
		t.Fatal(err)
	}
	if _, n = rs.wait(t, n, "applying app once resumed", func(r serve.RunResult) bool { return r.Project == "app" && r.Err == nil && r.Applied == 1 }); get("configmap", "settings", "-o", "jsonpath={.data.value}") != "b" {
		t.Fatal("the resumed project's commit was not applied")
	}
	if m := scrape(t, base); !strings.Contains(m, `kubeplan_suspended{project="app"} 0`) {
		t.Errorf("kubeplan_suspended after resume:\n%s", grepLines(m, "kubeplan_suspended"))
	}

	// web's interval is an hour: only the request runs it.
	webSet := applyset.Parent{Kind: "ConfigMap", Name: "web-set", Namespace: ns}
	g.commit("web: b", map[string]string{"web/web.yaml": configMap("web", "b")})
	asked := time.Now()
	at, err := apply.RequestSync(context.Background(), cl, webSet)
	if err != nil {
		t.Fatal(err)
	}
	wctx, wcancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer wcancel()
	d, err := apply.WaitSynced(wctx, cl, webSet, at, 100*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if d.Result != "ok" || d.Requested != at || get("configmap", "web", "-o", "jsonpath={.data.value}") != "b" {
		t.Fatalf("the sync request's answer: %+v, web = %q", d, get("configmap", "web", "-o", "jsonpath={.data.value}"))
	}
	if took := time.Since(asked); took > 15*time.Second {
		t.Errorf("the sync request took %s to be run", took)
	}
	if a := get("configmap", "web-set", "-o", `jsonpath={.metadata.annotations.kubeplan\.dev/sync-requested}`); a != "" {
		t.Errorf("the answered request is still on the parent: %s", a)
	}
	// A suspended project's sync is refused before it is asked for.
	if _, err := apply.Suspend(context.Background(), cl, webSet, plan.Suspension{By: "alice", Reason: "freeze"}); err != nil {
		t.Fatal(err)
	}
	if _, err := apply.RequestSync(context.Background(), cl, webSet); err == nil || !strings.Contains(err.Error(), `is suspended by alice: "freeze"`) {
		t.Fatalf("sync of a suspended project: %v", err)
	}
	// Resumed, web is run at once, although its interval is an hour: the
	// poll sees the suspension end.
	sha = g.commit("web: c", map[string]string{"web/web.yaml": configMap("web", "c")})
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(scrape(t, base), `kubeplan_suspended{project="web"} 1`); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("serve's poll did not see web suspended")
		}
	}
	if _, err := apply.Resume(context.Background(), cl, webSet, "bob"); err != nil {
		t.Fatal(err)
	}
	resumed := time.Now()
	rs.wait(t, n, "running web once resumed", func(r serve.RunResult) bool { return r.Project == "web" && r.Revision == sha && r.Applied == 1 })
	if took := time.Since(resumed); took > 15*time.Second || get("configmap", "web", "-o", "jsonpath={.data.value}") != "c" {
		t.Errorf("web after resume: %s, value %q", took, get("configmap", "web", "-o", "jsonpath={.data.value}"))
	}
}
