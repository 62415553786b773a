package serve_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
	"github.com/kubeplan/kubeplan/notify"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/serve"
	"github.com/kubeplan/kubeplan/source"
)

// crashLoopCanary is the Secret value crashLoopApp's container prints.
const crashLoopCanary = "hunter2-canary-serve-41"

// crashLoopApp is a Secret and a Deployment whose container (the
// testcluster's tag crashloop) prints a Secret-backed value and exits 1,
// again and again.
var crashLoopApp = testkube.CrashLoopSet(crashLoopCanary)

// TestIntegrationServeCrashLoop runs serve on the real API server with a
// project whose Deployment crash-loops: the run fails at the health wait
// and says why everywhere serve speaks: a HealthCheckFailed Warning Event
// on the parent whose note names the workload, reason and container; the
// failure counted with reason="CrashLoopBackOff"; one notification to a
// webhook (a local server) with the reason and the workload; the parent's
// last-failure record. The Secret's value is in none of them.
func TestIntegrationServeCrashLoop(t *testing.T) {
	testkube.Integration(t)
	t.Setenv("KUBEPLAN_CACHE_DIR", t.TempDir())
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	g := newRepo(t)
	cfg := fmt.Sprintf("projects:\n  - name: app\n    path: app\n    namespace: %s\n    applyset: configmap/app-set\n    interval: 2s\n", ns)
	g.commit("crash", map[string]string{"kubeplan.yaml": cfg, "app/web.yaml": crashLoopApp})

	var mu sync.Mutex
	var bodies []string
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, string(b))
		mu.Unlock()
	}))
	defer hook.Close()
	n, err := notify.New(notify.Config{Webhook: hook.URL + "/hook", Words: render.NotifyWords{}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	notifyRun := serve.Notify(n, testWriter{t})

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
			Apply:    apply.Options{FieldManager: "kubeplan", Version: "test", Wait: true, Timeout: 2 * time.Minute},
			OnRun: func(ctx context.Context, r serve.RunResult) {
				rs.add(ctx, r)
				notifyRun(ctx, r)
			},
			Log: testWriter{t},
		}, func(a fmt.Stringer) { addr <- a.String() })
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve.Run: %v", err)
		}
	}()
	base := "http://" + <-addr

	start := time.Now()
	res, _ := rs.wait(t, 0, "failing at the crash loop", func(r serve.RunResult) bool { return r.Err != nil })
	if took := time.Since(start); took > 45*time.Second || !strings.Contains(res.Err.Error(), "CrashLoopBackOff") {
		t.Fatalf("run after %s: %v", took, res.Err)
	}
	const canary = crashLoopCanary

	ev := expectEvent(t, c, ns, serve.ReasonHealthCheckFailed, "Warning", "deployment.apps/web: CrashLoopBackOff: container main exit code 1")
	if strings.Contains(ev, canary) {
		t.Errorf("the Event holds the Secret's value: %s", ev)
	}

	m := scrape(t, base)
	if !strings.Contains(m, `kubeplan_run_failures_total{project="app",reason="CrashLoopBackOff"}`) ||
		!strings.Contains(m, `kubeplan_last_failure_reason{project="app",reason="CrashLoopBackOff"} 1`) {
		t.Errorf("metrics lack the reason:\n%s", grepLines(m, "kubeplan_"))
	}

	var payload notify.Event
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		mu.Lock()
		got := append([]string(nil), bodies...)
		mu.Unlock()
		if len(got) > 0 {
			if len(got) != 1 {
				t.Errorf("%d notifications for one failure", len(got))
			}
			if strings.Contains(got[0], canary) {
				t.Errorf("the notification holds the Secret's value: %s", got[0])
			}
			if err := json.Unmarshal([]byte(got[0]), &payload); err != nil {
				t.Fatal(err)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no notification within 30s")
		}
	}
	if payload.Kind != notify.KindFailing || len(payload.Failures) != 1 || payload.Failures[0].Reason != "CrashLoopBackOff" ||
		payload.Failures[0].Workload != "deployment.apps/web" || payload.Failures[0].Source != "app/web.yaml:10:1" ||
		!strings.Contains(payload.Summary, "deployment.apps/web: CrashLoopBackOff: container main exit code 1") {
		t.Errorf("notification %+v", payload)
	}

	rec := c.Kubectl(t, "-n", ns, "get", "configmap", "app-set", "-o", `jsonpath={.metadata.annotations.kubeplan\.dev/last-failure}`)
	if lf := apply.ReadLastFailure(rec); lf == nil || lf.Workloads[0].Reason != "CrashLoopBackOff" || strings.Contains(rec, canary) ||
		!strings.Contains(rec, "connecting with password ***") {
		t.Errorf("last-failure record %s", rec)
	}
}
