package serve_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
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

const hookSecret = "push-secret-0451"

// served is serve running in-process: its /metrics address, its webhooks'
// address, its runs and its client's writes.
type served struct {
	base, hooks string
	rs          *results
	client      func() *kube.Client
}

// startServe runs serve on repository g with o's settings (Source,
// Connect, Plan, Apply, Listen and Log are set here) until the test ends.
func startServe(t *testing.T, c *testkube.Cluster, ns string, g *repo, o serve.Options) *served {
	t.Helper()
	var mu sync.Mutex
	var client *kube.Client
	o.Connect = func(project.Project) (*kube.Client, string, error) {
		cl, err := kube.NewFromKubeconfig(c.AdminKubeconfig(), ns)
		mu.Lock()
		client = cl
		mu.Unlock()
		return cl, "test", err
	}
	o.Source = source.Git{URL: g.bare, Ref: "main"}
	o.Listen = "127.0.0.1:0"
	o.Plan = plan.Options{FieldManager: "kubeplan"}
	o.Apply = apply.Options{FieldManager: "kubeplan", Version: "test", Wait: true}
	o.Log = testWriter{t}
	s := &served{rs: &results{}, client: func() *kube.Client { mu.Lock(); defer mu.Unlock(); return client }}
	onRun := o.OnRun
	o.OnRun = func(ctx context.Context, r serve.RunResult) {
		s.rs.add(ctx, r)
		if onRun != nil {
			onRun(ctx, r)
		}
	}
	hooks := make(chan string, 1)
	if o.WebhookListen != "" {
		o.WebhookReady = func(a fmt.Stringer) { hooks <- a.String() }
	}
	s.base = runServe(t, o)
	if o.WebhookListen != "" {
		s.hooks = "http://" + <-hooks
	}
	return s
}

// runsOf are the runs of project since the n-th.
func (r *results) runsOf(project string, from int) []serve.RunResult {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []serve.RunResult
	for _, res := range r.all[from:] {
		if res.Project == project {
			out = append(out, res)
		}
	}
	return out
}

func (r *results) len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.all)
}

// pushHook posts a GitHub push of commit on main, signed with secret.
func pushHook(t *testing.T, hooks, commit, secret string) int {
	t.Helper()
	body := fmt.Sprintf(`{"ref":"refs/heads/main","after":%q}`, commit)
	req, err := http.NewRequest("POST", hooks+"/hooks/github", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-GitHub-Event", "push")
	req.Header.Set("X-Hub-Signature-256", serve.Sign([]byte(secret), []byte(body)))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func secretFile(t *testing.T) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "webhook-secret")
	if err := os.WriteFile(f, []byte(hookSecret+"\n"), 0o400); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestIntegrationServePush runs serve in-process on the real API server
// with an interval of an hour and its push webhooks: a signed push of a
// one-project change puts that project in sync within seconds and runs
// no other; a badly signed push changes nothing (no run, no write); a
// burst of 10 signed pushes is one run of the project.
func TestIntegrationServePush(t *testing.T) {
	testkube.Integration(t)
	t.Setenv("KUBEPLAN_CACHE_DIR", t.TempDir())
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	g := newRepo(t)
	cfg := fmt.Sprintf("projects:\n  - name: app\n    path: app\n    namespace: %[1]s\n    applyset: configmap/app-set\n"+
		"  - name: other\n    path: other\n    namespace: %[1]s\n    applyset: configmap/other-set\n", ns)
	g.commit("first", map[string]string{"kubeplan.yaml": cfg, "app/settings.yaml": configMap("settings", "a"),
		"other/o.yaml": configMap("other", "a")})

	s := startServe(t, c, ns, g, serve.Options{Interval: time.Hour, WebhookListen: "127.0.0.1:0", WebhookSecretFile: secretFile(t)})
	_, _ = s.rs.wait(t, 0, "applying app", func(r serve.RunResult) bool { return r.Project == "app" && r.Err == nil && r.Applied == 1 })
	_, _ = s.rs.wait(t, 0, "applying other", func(r serve.RunResult) bool { return r.Project == "other" && r.Err == nil && r.Applied == 1 })
	value := func() string {
		return c.Kubectl(t, "get", "configmap", "settings", "-n", ns, "-o", "jsonpath={.data.value}")
	}

	// A signed push of a change to app: in sync within seconds, though
	// the interval is an hour; other does not run.
	n := s.rs.len()
	second := g.commit("app b", map[string]string{"app/settings.yaml": configMap("settings", "b")})
	start := time.Now()
	if code := pushHook(t, s.hooks, second, hookSecret); code != http.StatusAccepted {
		t.Fatalf("signed push: %d", code)
	}
	res, _ := s.rs.wait(t, n, "for the push", func(r serve.RunResult) bool { return r.Project == "app" })
	took := time.Since(start)
	if res.Err != nil || res.Revision != second || res.Applied != 1 || value() != "b" {
		t.Fatalf("after the push: %+v, value %q", res, value())
	}
	if took > 10*time.Second {
		t.Errorf("the push was applied after %s, want seconds", took)
	}
	t.Logf("push -> in sync: %s (run %s)", took, res.End.Sub(res.Start))
	time.Sleep(time.Second)
	if runs := s.rs.runsOf("other", n); len(runs) != 0 {
		t.Errorf("the push of app ran other: %+v", runs)
	}

	// A badly signed push: 401, no run, no write.
	n = s.rs.len()
	third := g.commit("app c", map[string]string{"app/settings.yaml": configMap("settings", "c")})
	writes := s.client().Requests.Writes()
	if code := pushHook(t, s.hooks, third, "not-the-secret"); code != http.StatusUnauthorized {
		t.Errorf("badly signed push: %d, want 401", code)
	}
	time.Sleep(3 * time.Second)
	if got := s.rs.len(); got != n || value() != "b" || s.client().Requests.Writes() != writes {
		t.Errorf("a badly signed push: %d runs, value %q, %d writes", got-n, value(), s.client().Requests.Writes()-writes)
	}

	// A burst of 10 signed pushes: one run of app.
	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() {
			if code := pushHook(t, s.hooks, third, hookSecret); code != http.StatusAccepted {
				t.Errorf("push of the burst: %d", code)
			}
		})
	}
	wg.Wait()
	res, _ = s.rs.wait(t, n, "for the burst", func(r serve.RunResult) bool { return r.Project == "app" })
	if res.Err != nil || res.Revision != third || value() != "c" {
		t.Errorf("after the burst: %+v, value %q", res, value())
	}
	time.Sleep(3 * time.Second)
	if runs := s.rs.runsOf("app", n); len(runs) != 1 {
		t.Errorf("a burst of 10 pushes made %d runs of app, want 1", len(runs))
	}
	if runs := s.rs.runsOf("other", n); len(runs) != 0 {
		t.Errorf("the burst ran other: %+v", runs)
	}
	m := scrape(t, s.base)
	for _, want := range []string{`kubeplan_webhook_requests_total{provider="github",result="accepted"} 11`,
		`kubeplan_webhook_requests_total{provider="github",result="unauthorized"} 1`} {
		if !strings.Contains(m, want) {
			t.Errorf("metrics lack %s:\n%s", want, grepLines(m, "kubeplan_webhook"))
		}
	}
}
