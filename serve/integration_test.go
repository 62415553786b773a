package serve_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/serve"
	"github.com/kubeplan/kubeplan/source"
)

func TestMain(m *testing.M) { testkube.Main(m) }

// repo is a bare repository and a clone to commit from.
type repo struct {
	t           *testing.T
	bare, clone string
}

func newRepo(t *testing.T) *repo {
	root := t.TempDir()
	r := &repo{t: t, bare: filepath.Join(root, "deploy.git"), clone: filepath.Join(root, "clone")}
	r.git(root, "init", "-q", "--bare", "-b", "main", r.bare)
	r.git(root, "clone", "-q", r.bare, r.clone)
	r.git(r.clone, "checkout", "-q", "-b", "main")
	return r
}

func (r *repo) git(dir string, args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=dev", "-c", "user.email=dev@example.com"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// commit writes files and pushes; it returns the full commit hash.
func (r *repo) commit(msg string, files map[string]string) string {
	r.t.Helper()
	for name, body := range files {
		p := filepath.Join(r.clone, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			r.t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
	r.git(r.clone, "add", "-A")
	r.git(r.clone, "commit", "-q", "-m", msg)
	r.git(r.clone, "push", "-q", "origin", "main")
	return r.git(r.clone, "rev-parse", "HEAD")
}

// results collects OnRun's calls.
type results struct {
	mu  sync.Mutex
	all []serve.RunResult
}

func (r *results) add(_ context.Context, res serve.RunResult) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.all = append(r.all, res)
}

// wait returns the first result after the n-th that ok accepts.
func (r *results) wait(t *testing.T, from int, what string, ok func(serve.RunResult) bool) (serve.RunResult, int) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		r.mu.Lock()
		for i := from; i < len(r.all); i++ {
			if ok(r.all[i]) {
				res := r.all[i]
				r.mu.Unlock()
				return res, i + 1
			}
		}
		r.mu.Unlock()
	}
	t.Fatalf("no run %s within 60s; runs: %+v", what, r.all)
	return serve.RunResult{}, 0
}

func configMap(name, value string) string {
	return fmt.Sprintf("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s\ndata:\n  value: %q\n", name, value)
}

// TestIntegrationServe runs the reconciler in-process on the real API
// server: a commit is applied; a broken commit fails (OnRun's Err, the
// failure metric, a Warning Event on the parent, repeated rounds counted
// in the Event's series); the fix recovers; rounds at an unchanged
// revision write nothing.
func TestIntegrationServe(t *testing.T) {
	testkube.Integration(t)
	t.Setenv("KUBEPLAN_CACHE_DIR", t.TempDir())
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	g := newRepo(t)
	cfg := fmt.Sprintf("projects:\n  - name: app\n    path: app\n    namespace: %s\n    applyset: configmap/app-set\n    interval: 1s\n", ns)
	first := g.commit("first", map[string]string{"kubeplan.yaml": cfg, "app/settings.yaml": configMap("settings", "a")})

	var client *kube.Client
	connect := func(project.Project) (*kube.Client, string, error) {
		cl, err := kube.NewFromKubeconfig(c.AdminKubeconfig(), ns)
		client = cl
		return cl, "test", err
	}
	var rs results
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- serve.Run(ctx, serve.Options{
			Source:   source.Git{URL: g.bare, Ref: "main"},
			Interval: time.Hour, // the project's own 1s wins
			Listen:   "127.0.0.1:0",
			Connect:  connect,
			Plan:     plan.Options{FieldManager: "kubeplan"},
			Apply:    apply.Options{FieldManager: "kubeplan", Version: "test", Wait: true},
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

	res, n := rs.wait(t, 0, "applying the first commit", func(r serve.RunResult) bool { return r.Err == nil && r.Applied == 1 })
	if res.Revision != first || res.Project != "app" || res.Namespace != ns || res.ApplySet != "configmap/app-set" || !res.Scheduled {
		t.Errorf("first run: %+v", res)
	}
	if got := c.Kubectl(t, "get", "configmap", "settings", "-n", ns, "-o", "jsonpath={.data.value}"); got != "a" {
		t.Errorf("settings.value = %q", got)
	}
	expectEvent(t, c, ns, serve.ReasonSucceeded, "Normal", short(first))

	// Rounds at the same revision: no write at all.
	_, n = rs.wait(t, n, "in sync", func(r serve.RunResult) bool { return r.Err == nil && r.Applied == 0 })
	writes := client.Requests.Writes()
	_, n = rs.wait(t, n, "in sync again", func(r serve.RunResult) bool { return r.Err == nil && r.Applied == 0 })
	_, n = rs.wait(t, n, "in sync a third time", func(r serve.RunResult) bool { return r.Err == nil && r.Applied == 0 })
	if w := client.Requests.Writes(); w != writes {
		t.Errorf("two no-op rounds made %d writes", w-writes)
	}

	broken := g.commit("broken", map[string]string{"app/settings.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  value: [1\n"})
	res, n = rs.wait(t, n, "failing at the broken commit", func(r serve.RunResult) bool { return r.Err != nil })
	if res.Revision != broken || !strings.Contains(res.Err.Error(), "lint found") || len(res.Findings) == 0 || !strings.Contains(res.Findings[0], "settings.yaml:") {
		t.Errorf("broken run: %+v", res)
	}
	_, n = rs.wait(t, n, "failing again", func(r serve.RunResult) bool { return r.Err != nil })
	m := scrape(t, base)
	for _, want := range []string{`kubeplan_run_result{project="app"} 0`, `kubeplan_revision_info{project="app",revision="` + broken + `"} 1`} {
		if !strings.Contains(m, want) {
			t.Errorf("metrics lack %s:\n%s", want, grepLines(m, "kubeplan_"))
		}
	}
	if !strings.Contains(m, `kubeplan_runs_total{project="app",result="failure"}`) || strings.Contains(m, `revision="`+first+`"`) {
		t.Errorf("metrics after the failure:\n%s", grepLines(m, "kubeplan_"))
	}
	ev := expectEvent(t, c, ns, serve.ReasonFailed, "Warning", "lint found") // waits for its series
	if !strings.Contains(ev, `"count":`) {
		t.Errorf("the repeated failure has no series count: %s", ev)
	}
	if got := countEvents(t, c, ns, serve.ReasonFailed); got != 1 {
		t.Errorf("%d ReconciliationFailed Events, want 1 with a series", got)
	}

	fixed := g.commit("fixed", map[string]string{"app/settings.yaml": configMap("settings", "b")})
	res, _ = rs.wait(t, n, "recovering", func(r serve.RunResult) bool { return r.Err == nil && r.Revision == fixed })
	if res.Applied != 1 {
		t.Errorf("recovery: %+v", res)
	}
	expectEvent(t, c, ns, serve.ReasonSucceeded, "Normal", short(fixed))
	m = scrape(t, base)
	if !strings.Contains(m, `kubeplan_run_result{project="app"} 1`) || !strings.Contains(m, `kubeplan_last_success_timestamp_seconds{project="app"}`) {
		t.Errorf("metrics after recovery:\n%s", grepLines(m, "kubeplan_"))
	}
	for _, path := range []string{"/healthz", "/readyz"} {
		resp, err := http.Get(base + path)
		if err != nil || resp.StatusCode != 200 {
			t.Errorf("%s: %v %v", path, resp, err)
		}
	}
}

func short(sha string) string { return sha[:7] }

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

func scrape(t *testing.T, base string) string {
	t.Helper()
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func grepLines(s, prefix string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

var eventsGVR = schema.GroupVersionResource{Group: "events.k8s.io", Version: "v1", Resource: "events"}

// expectEvent waits for an Event with reason, type and a note holding
// text on the parent app-set, and returns it as JSON.
func expectEvent(t *testing.T, c *testkube.Cluster, ns, reason, typ, text string) string {
	t.Helper()
	var last string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		out, err := c.TryKubectl("get", "events.events.k8s.io", "-n", ns, "-o", "jsonpath={range .items[*]}{.reason}|{.type}|{.regarding.kind}/{.regarding.name}|{.reportingController}|{.note}|{.series}{\"\\n\"}{end}")
		if err != nil {
			t.Fatal(err)
		}
		last = out
		for _, l := range strings.Split(out, "\n") {
			f := strings.Split(l, "|")
			if len(f) == 6 && f[0] == reason && f[1] == typ && f[2] == "ConfigMap/app-set" && f[3] == serve.ReportingController && strings.Contains(f[4], text) {
				if reason != serve.ReasonFailed || f[5] != "" {
					return l
				}
			}
		}
	}
	t.Fatalf("no %s Event %q on configmap/app-set; events:\n%s", reason, text, last)
	return ""
}

func countEvents(t *testing.T, c *testkube.Cluster, ns, reason string) int {
	t.Helper()
	dc, err := kube.NewFromKubeconfig(c.AdminKubeconfig(), ns)
	if err != nil {
		t.Fatal(err)
	}
	l, err := dc.Dynamic.Resource(eventsGVR).Namespace(ns).List(context.Background(), metav1.ListOptions{FieldSelector: "reason=" + reason})
	if err != nil {
		t.Fatal(err)
	}
	return len(l.Items)
}

// runServe runs serve.Run with o until the test ends (its error fails the
// test) and returns the base URL of its metrics listener. o.Listen
// defaults to a free local port, o.Log to the test's log.
func runServe(t *testing.T, o serve.Options) string {
	t.Helper()
	if o.Listen == "" {
		o.Listen = "127.0.0.1:0"
	}
	if o.Log == nil {
		o.Log = testWriter{t}
	}
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- serve.Run(ctx, o, func(a fmt.Stringer) { addr <- a.String() }) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve.Run: %v", err)
		}
	})
	select {
	case a := <-addr:
		return "http://" + a
	case err := <-done:
		t.Fatalf("serve.Run ended before it listened: %v", err)
		return ""
	}
}
