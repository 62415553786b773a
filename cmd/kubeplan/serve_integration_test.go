package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"k8s.io/client-go/tools/clientcmd"

	"github.com/kubeplan/kubeplan/internal/testing/githubtest"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

// serviceAccount makes ServiceAccount kubeplan in ns with a Role limited
// to what serve needs there, mints its token with the TokenRequest API
// (kubectl create token) and writes the token, ca.crt and namespace as
// the kubelet mounts them. It returns the in-cluster environment that
// points the binary at the testcluster as that ServiceAccount.
func serviceAccount(t *testing.T, c *testkube.Cluster, ns string) []string {
	t.Helper()
	c.Kubectl(t, "create", "serviceaccount", "kubeplan", "-n", ns)
	c.Kubectl(t, "create", "role", "kubeplan", "-n", ns, "--verb=get,list,watch,create,update,patch,delete",
		"--resource=configmaps,deployments.apps,replicasets.apps,pods,leases.coordination.k8s.io,events.events.k8s.io")
	c.Kubectl(t, "create", "rolebinding", "kubeplan", "-n", ns, "--role=kubeplan", "--serviceaccount="+ns+":kubeplan")
	token := strings.TrimSpace(c.Kubectl(t, "create", "token", "kubeplan", "-n", ns, "--duration=1h"))
	cfg, err := clientcmd.LoadFromFile(c.AdminKubeconfig())
	if err != nil {
		t.Fatal(err)
	}
	cluster := cfg.Clusters[cfg.Contexts[cfg.CurrentContext].Cluster]
	u, err := url.Parse(cluster.Server)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, body := range map[string][]byte{"token": []byte(token), "ca.crt": cluster.CertificateAuthorityData, "namespace": []byte(ns)} {
		if err := os.WriteFile(filepath.Join(dir, name), body, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// Wait until the authorizer sees the binding.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		out, _ := c.TryKubectl("auth", "can-i", "create", "leases.coordination.k8s.io", "-n", ns, "--as=system:serviceaccount:"+ns+":kubeplan")
		if strings.TrimSpace(out) == "yes" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the ServiceAccount's Role did not take effect")
		}
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "KUBECONFIG=") && !strings.HasPrefix(kv, "HOME=") {
			env = append(env, kv)
		}
	}
	return append(env, "HOME="+t.TempDir(), "KUBERNETES_SERVICE_HOST="+u.Hostname(), "KUBERNETES_SERVICE_PORT="+u.Port(),
		"KUBEPLAN_SERVICEACCOUNT_DIR="+dir)
}

// gitHTTP serves the repositories under root over smart http (git
// http-backend as CGI) to clients whose basic-auth password is the token
// in tokenFile, read at every request.
func gitHTTP(t *testing.T, root, tokenFile string) string {
	t.Helper()
	gitBin, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	backend := &cgi.Handler{Path: gitBin, Args: []string{"http-backend"}, Root: "/git",
		Env: []string{"GIT_PROJECT_ROOT=" + root, "GIT_HTTP_EXPORT_ALL=1"}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		want, err := os.ReadFile(tokenFile)
		_, pass, ok := r.BasicAuth()
		if err != nil || !ok || pass != strings.TrimSpace(string(want)) {
			w.Header().Set("WWW-Authenticate", `Basic realm="git"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		backend.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/git/"
}

// process is a running kubeplan serve.
type process struct {
	t    *testing.T
	cmd  *exec.Cmd
	mu   sync.Mutex
	log  []string
	addr string
	done chan struct{}
	err  error
}

func startServe(t *testing.T, bin string, env []string, args ...string) *process {
	t.Helper()
	p := &process{t: t, cmd: exec.Command(bin, append(args, "--listen", "127.0.0.1:0")...), done: make(chan struct{})}
	p.cmd.Env = append(env, "KUBEPLAN_CACHE_DIR="+t.TempDir())
	stderr, err := p.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	p.cmd.Stdout = io.Discard
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.cmd.Process.Kill(); <-p.done })
	listening := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			l := sc.Text()
			if a, ok := strings.CutPrefix(l, "kubeplan serve: listening on "); ok {
				listening <- a
			}
			p.mu.Lock()
			p.log = append(p.log, l)
			p.mu.Unlock()
		}
		p.err = p.cmd.Wait()
		close(p.done)
	}()
	select {
	case p.addr = <-listening:
	case <-p.done:
		t.Fatalf("kubeplan serve exited: %v\n%s", p.err, p.logText())
	case <-time.After(30 * time.Second):
		t.Fatal("kubeplan serve did not listen within 30s")
	}
	return p
}

func (p *process) logText() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Join(p.log, "\n")
}

func (p *process) metrics() string {
	resp, err := http.Get("http://" + p.addr + "/metrics")
	if err != nil {
		return ""
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// eventually waits up to 60s for ok, failing with what.
func eventually(t *testing.T, what string, ok func() bool, diag func() string) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if ok() {
			return
		}
	}
	t.Fatalf("%s: not within 60s\n%s", what, diag())
}

// stop sends SIGTERM and waits for the exit, which must be 0.
func (p *process) stop(within time.Duration) {
	p.t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		p.t.Fatal(err)
	}
	select {
	case <-p.done:
	case <-time.After(within):
		p.t.Fatalf("kubeplan serve did not exit within %s of SIGTERM\n%s", within, p.logText())
	}
	var ee *exec.ExitError
	if errors.As(p.err, &ee) || p.err != nil {
		p.t.Fatalf("kubeplan serve exited with %v after SIGTERM\n%s", p.err, p.logText())
	}
}

func events(c *testkube.Cluster, ns string) string {
	out, _ := c.TryKubectl("get", "events.events.k8s.io", "-n", ns, "-o",
		`jsonpath={range .items[*]}{.reason}|{.type}|{.regarding.name}|{.note}|{.series.count}{"\n"}{end}`)
	return out
}

func hasEvent(c *testkube.Cluster, ns, reason, text string) bool {
	for _, l := range strings.Split(events(c, ns), "\n") {
		if strings.HasPrefix(l, reason+"|") && strings.Contains(l, "|app-set|") && strings.Contains(l, text) {
			return true
		}
	}
	return false
}

// The binary, run as a ServiceAccount with the in-cluster environment,
// reconciles a repository served over http with a token: it applies, a
// broken commit fails (Event, metrics), the fix recovers. A second replica
// waits on the Lease while the first holds it (in a health wait), and
// takes over when the first, sent SIGTERM, finishes its run and exits 0.
func TestIntegrationServeInCluster(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	env := serviceAccount(t, c, ns)
	bin := testkube.Kubeplan(t)
	g := newGitRepo(t)
	tokenFile := filepath.Join(t.TempDir(), "token")
	const token = "s3cr3t-t0ken-value"
	if err := os.WriteFile(tokenFile, []byte(token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	source := gitHTTP(t, filepath.Dir(g.bare), tokenFile) + filepath.Base(g.bare)
	cfg := fmt.Sprintf("projects:\n  - name: app\n    path: app\n    namespace: %s\n    applyset: configmap/app-set\n", ns)
	g.commit("first", map[string]string{"kubeplan.yaml": cfg, "app/settings.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  value: a\n"})

	// Notifications: a webhook that records what it is sent, and a fake
	// GitHub API for the commit statuses.
	var hookMu sync.Mutex
	var hooks []string // the "kind" of each webhook call
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Kind string `json:"kind"`
		}
		_ = json.NewDecoder(r.Body).Decode(&body)
		hookMu.Lock()
		hooks = append(hooks, body.Kind)
		hookMu.Unlock()
	}))
	defer hook.Close()
	webhook := func() string { hookMu.Lock(); defer hookMu.Unlock(); return strings.Join(hooks, ",") }
	const ghToken = "ghp-notify-token-value"
	gh := githubtest.New(t, "acme/deploy", ghToken)
	ghTokenFile := filepath.Join(t.TempDir(), "gh-token")
	if err := os.WriteFile(ghTokenFile, []byte(ghToken+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	statusOf := func(sha string) string {
		var out []string
		for _, st := range gh.AllStatuses() {
			if strings.HasPrefix(st.SHA, sha) {
				out = append(out, st.Context+"="+st.State)
			}
		}
		return strings.Join(out, ",")
	}
	envA := append(append([]string(nil), env...), "GITHUB_API_URL="+gh.APIURL())
	a := startServe(t, bin, envA, "serve", "--source", source, "--ref", "main", "--git-token-file", tokenFile, "--interval", "1s",
		"--notify-webhook", hook.URL, "--github-repository", "acme/deploy", "--github-token-file", ghTokenFile)
	diagA := func() string { return a.logText() + "\n" + events(c, ns) }
	eventually(t, "the ConfigMap applied as the ServiceAccount", func() bool {
		out, _ := c.TryKubectl("get", "configmap", "settings", "-n", ns, "-o", "jsonpath={.metadata.managedFields[0].manager}/{.data.value}")
		return out == "kubeplan/a"
	}, diagA)
	eventually(t, "ready", func() bool {
		resp, err := http.Get("http://" + a.addr + "/readyz")
		return err == nil && resp.StatusCode == 200
	}, diagA)
	// A long-running process collects at GOGC=50 (gctune), and says so.
	if m := a.metrics(); !strings.Contains(m, "go_gc_gogc_percent 50") || !strings.Contains(a.logText(), "kubeplan serve: memory: GOGC=50") {
		t.Errorf("serve's GOGC: %s\n%s", grepMetric(m, "go_gc_gogc_percent"), a.logText())
	}

	broken := g.commit("broken", map[string]string{"app/settings.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  value: [1\n"})
	eventually(t, "the broken commit fails", func() bool {
		m := a.metrics()
		return strings.Contains(m, `kubeplan_run_result{project="app"} 0`) && regexp.MustCompile(`kubeplan_runs_total\{project="app",result="failure"\} [1-9]`).MatchString(m) &&
			hasEvent(c, ns, "ReconciliationFailed|Warning", broken) && hasEvent(c, ns, "ReconciliationFailed", "lint found")
	}, diagA)

	eventually(t, "one failing notification and a failure status on the broken commit", func() bool {
		return webhook() == "failing" && statusOf(broken) == "kubeplan/app=failure"
	}, func() string {
		return fmt.Sprintf("webhook: %s\nstatuses: %+v\ncalls: %v\n%s", webhook(), gh.AllStatuses(), gh.Calls(), diagA())
	})
	time.Sleep(3 * time.Second) // three more failing rounds: still one notification
	if got := webhook(); got != "failing" {
		t.Errorf("webhook calls while the project keeps failing: %q, want one failing", got)
	}
	if is := gh.Issues("acme/deploy"); len(is) != 0 {
		t.Errorf("a broken commit is not drift, but a drift issue was opened: %+v", is)
	}

	fixed := g.commit("fixed", map[string]string{"app/settings.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  value: b\n"})
	eventually(t, "the fix recovers", func() bool {
		m := a.metrics()
		return strings.Contains(m, `kubeplan_run_result{project="app"} 1`) && strings.Contains(m, `kubeplan_revision_info{project="app",revision="`+fixed) &&
			hasEvent(c, ns, "ReconciliationSucceeded|Normal", fixed)
	}, diagA)

	eventually(t, "exactly one recovered notification and a success status on the fix", func() bool {
		return webhook() == "failing,recovered" && statusOf(fixed) == "kubeplan/app=success"
	}, func() string { return "webhook: " + webhook() + "\n" + diagA() })
	time.Sleep(3 * time.Second) // more rounds in sync: nothing more
	if got := webhook(); got != "failing,recovered" {
		t.Errorf("webhook calls after the recovery: %q, want failing,recovered", got)
	}
	if cm, _ := c.TryKubectl("get", "configmap", "kubeplan-notify", "-n", ns, "-o", "jsonpath={.metadata.annotations.kubeplan\\.dev/notify-state}"); !strings.Contains(cm, "app") {
		t.Errorf("the notification state is not kept in the ConfigMap kubeplan-notify: %q", cm)
	}

	// A Deployment that never becomes available (the simulated kubelet
	// never pulls tag doesnotexist) keeps replica A in its health wait,
	// holding the Lease; SIGTERM ends that wait (never a write), the run
	// is recorded as failed and the Lease released.
	stuck := g.commit("stuck", map[string]string{"app/web.yaml": testkube.Deployment("web", "nginx:doesnotexist", 1)})
	holderA := fmt.Sprintf("-%d-", a.cmd.Process.Pid)
	lease := func() string {
		out, _ := c.TryKubectl("get", "lease", "kubeplan-lock-app-set", "-n", ns, "-o", "jsonpath={.spec.holderIdentity}")
		return out
	}
	eventually(t, "replica A holds the Lease", func() bool { return strings.Contains(lease(), holderA) }, diagA)

	b := startServe(t, bin, env, "serve", "--source", source, "--ref", "main", "--git-token-file", tokenFile, "--interval", "5m")
	diagB := func() string { return "A:\n" + a.logText() + "\nB:\n" + b.logText() + "\nLease: " + lease() }
	eventually(t, "replica B waits on the Lease", func() bool { return strings.Contains(b.logText(), "waiting") }, diagB)
	if m := b.metrics(); strings.Contains(m, `kubeplan_runs_total{project="app"`) {
		t.Fatalf("replica B reported a run while A held the Lease:\n%s", diagB())
	}
	if !strings.Contains(lease(), holderA) {
		t.Fatalf("the Lease moved while A was in its run: %s", lease())
	}

	a.stop(60 * time.Second) // its health wait ends, the run is recorded, the Lease released
	if !strings.Contains(a.logText(), "app at "+stuck[:7]) {
		t.Errorf("replica A did not finish its run before exiting:\n%s", a.logText())
	}
	// B runs the project once the Lease is gone: the Deployment is
	// unchanged, so it is not waited for, and the run succeeds.
	eventually(t, "replica B runs the project after A", func() bool {
		return strings.Contains(b.logText(), "the lock is free; running it again") &&
			strings.Contains(b.metrics(), `kubeplan_runs_total{project="app",result="success"} 1`)
	}, diagB)
	if l := lease(); l != "" {
		t.Errorf("the Lease is still held after both runs: %s", l)
	}
	b.stop(60 * time.Second)
	for name, log := range map[string]string{"A": a.logText(), "B": b.logText()} {
		if strings.Contains(log, token) || strings.Contains(log, ghToken) {
			t.Errorf("replica %s printed the git token", name)
		}
	}
	if _, err := net.Dial("tcp", a.addr); err == nil {
		t.Errorf("replica A's HTTP server still answers after exit")
	}
}

// grepMetric is the lines of m that start with name.
func grepMetric(m, name string) string {
	var out []string
	for _, l := range strings.Split(m, "\n") {
		if strings.HasPrefix(l, name) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
