package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

// gitRepo is a bare repository and a clone that commits and pushes to it.
type gitRepo struct {
	t           *testing.T
	bare, clone string
}

func newGitRepo(t *testing.T) *gitRepo {
	t.Helper()
	root := t.TempDir()
	g := &gitRepo{t: t, bare: filepath.Join(root, "shop.git"), clone: filepath.Join(root, "clone")}
	g.git(root, "init", "-q", "--bare", "-b", "main", g.bare)
	g.git(root, "clone", "-q", g.bare, g.clone)
	g.git(g.clone, "checkout", "-q", "-b", "main")
	return g
}

func (g *gitRepo) git(dir string, args ...string) string {
	g.t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=dev", "-c", "user.email=dev@example.com"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		g.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func (g *gitRepo) commit(msg string, files map[string]string) string {
	g.t.Helper()
	for name, body := range files {
		p := filepath.Join(g.clone, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			g.t.Fatal(err)
		}
	}
	g.git(g.clone, "add", "-A")
	g.git(g.clone, "commit", "-q", "-m", msg)
	g.git(g.clone, "push", "-q", "origin", "main")
	return g.git(g.clone, "rev-parse", "--short=7", "HEAD")
}

func TestIntegrationApplyFromGit(t *testing.T) {
	testkube.Integration(t)
	t.Setenv("KUBEPLAN_CACHE_DIR", t.TempDir())
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	kc := c.Narrow(t, "gitops", ns)
	deploy := func(replicas string) string {
		return "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: " + replicas + "\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.30\n"
	}
	g := newGitRepo(t)
	sha := g.commit("seed", map[string]string{
		"manifests/deployment.yaml": deploy("3"),
		"manifests/configmap.yaml":  "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  currency: EUR\n",
		"README.md":                 "not a manifest\n",
	})
	args := []string{"apply", "--kubeconfig", kc, "-n", ns, "--applyset", "configmap/gitops-applyset", "--source", g.bare, "--ref", "main", "--path", "manifests", "--timeout", "60s"}

	code, stdout, stderr := cli(args...)
	if code != 0 || !strings.Contains(stdout, "deployment.apps/web created") || !strings.HasSuffix(stdout, "in sync with "+sha+" seed\n") {
		t.Fatalf("first apply: exit %d\n%s\n%s", code, stdout, stderr)
	}
	// Again: nothing to do, still in sync, and nothing written: not the
	// parent, not even the lock.
	rvBefore := c.Kubectl(t, "-n", ns, "get", "configmap", "gitops-applyset", "-o", "jsonpath={.metadata.resourceVersion}")
	if code, stdout, _ := cli(args...); code != 0 || !strings.Contains(stdout, "Apply: 0 created, 0 configured, 0 pruned, 2 unchanged.") || !strings.HasSuffix(stdout, "in sync with "+sha+" seed\n") {
		t.Errorf("no-op: exit %d\n%s", code, stdout)
	}
	rvAfter := c.Kubectl(t, "-n", ns, "get", "configmap", "gitops-applyset", "-o", "jsonpath={.metadata.resourceVersion}")
	if rvAfter != rvBefore {
		t.Errorf("the no-op rewrote the parent (%s -> %s)", rvBefore, rvAfter)
	}
	if leases := c.Kubectl(t, "-n", ns, "get", "leases", "-o", "name"); leases != "" {
		t.Errorf("lock left behind: %s", leases)
	}

	// The typo commit writes nothing and fails with the line and column.
	typo := g.commit("replicas typo", map[string]string{"manifests/deployment.yaml": deploy("three")})
	rv := c.Kubectl(t, "-n", ns, "get", "deployment", "web", "-o", "jsonpath={.metadata.resourceVersion}")
	code, stdout, stderr = cli(args...)
	if code != 1 || !strings.Contains("\n"+stderr, "\nmanifests/deployment.yaml:6:13: error schema: spec.replicas must be an integer") || strings.Contains(stdout, "configured") {
		t.Errorf("typo %s: exit %d\nstdout:\n%s\nstderr:\n%s", typo, code, stdout, stderr)
	}
	if got := c.Kubectl(t, "-n", ns, "get", "deployment", "web", "-o", "jsonpath={.metadata.resourceVersion}"); got != rv {
		t.Errorf("the typo commit wrote the deployment (%s -> %s)", rv, got)
	}
	if got := c.Kubectl(t, "-n", ns, "get", "deployment", "web", "-o", "jsonpath={.status.readyReplicas}"); got != "3" {
		t.Errorf("ready replicas after the typo: %q", got)
	}

	// The revert converges.
	g.git(g.clone, "revert", "--no-edit", "HEAD")
	g.git(g.clone, "push", "-q", "origin", "main")
	head := g.git(g.clone, "rev-parse", "--short=7", "HEAD")
	code, stdout, stderr = cli(args...)
	if code != 0 || !strings.HasSuffix(stdout, "in sync with "+head+" Revert \"replicas typo\"\n") {
		t.Errorf("revert: exit %d\n%s\n%s", code, stdout, stderr)
	}

	// status, read-only, as the narrow identity.
	code, stdout, stderr = cli("status", "--kubeconfig", kc, "-n", ns, "--applyset", "configmap/gitops-applyset")
	full := g.git(g.clone, "rev-parse", "HEAD")
	if code != 0 || !strings.Contains(stdout, "Revision:  "+full) || !strings.Contains(stdout, "Result:    ok") ||
		!strings.Contains(stdout, "deployment.apps/web") || !strings.Contains(stdout, "Current") {
		t.Errorf("status: exit %d\n%s\n%s", code, stdout, stderr)
	}

	// --drift=report: a hand edit exits 2 and writes nothing.
	c.Kubectl(t, "-n", ns, "scale", "deployment/web", "--replicas=5")
	if code, stdout, _ := cli(append(args, "--drift=report")...); code != 2 || !strings.Contains(stdout, "spec.replicas is 5") {
		t.Errorf("drift report: exit %d\n%s", code, stdout)
	}
	if got := c.Kubectl(t, "-n", ns, "get", "deployment", "web", "-o", "jsonpath={.spec.replicas}"); got != "5" {
		t.Errorf("--drift=report wrote: replicas %s", got)
	}
	// git rm the settings: pruned.
	g.git(g.clone, "rm", "-q", "manifests/configmap.yaml")
	g.git(g.clone, "commit", "-q", "-m", "drop settings")
	g.git(g.clone, "push", "-q", "origin", "main")
	if code, stdout, _ := cli(args...); code != 0 || !strings.Contains(stdout, "configmap/settings pruned") || !strings.Contains(stdout, "deployment.apps/web configured") {
		t.Errorf("prune from git: exit %d\n%s", code, stdout)
	}
}

// plan --source --ref plans a branch that is not applied yet, as a
// reviewer would before merging it; nothing is written.
func TestIntegrationPlanFromGitBranch(t *testing.T) {
	testkube.Integration(t)
	t.Setenv("KUBEPLAN_CACHE_DIR", t.TempDir())
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	kc := c.Narrow(t, "gitops", ns)
	settings := func(currency string) string {
		return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  currency: " + currency + "\n"
	}
	g := newGitRepo(t)
	g.commit("seed", map[string]string{"manifests/configmap.yaml": settings("EUR")})
	common := []string{"--kubeconfig", kc, "-n", ns, "--applyset", "configmap/gitops-applyset", "--source", g.bare, "--path", "manifests"}
	if code, stdout, stderr := cli(append([]string{"apply", "--ref", "main"}, common...)...); code != 0 {
		t.Fatalf("apply main: exit %d\n%s\n%s", code, stdout, stderr)
	}
	g.git(g.clone, "checkout", "-q", "-b", "topic")
	os.WriteFile(filepath.Join(g.clone, "manifests/configmap.yaml"), []byte(settings("USD")), 0o644)
	g.git(g.clone, "commit", "-q", "-am", "prices in USD")
	g.git(g.clone, "push", "-q", "origin", "topic")
	topic := g.git(g.clone, "rev-parse", "HEAD")
	rv := c.Kubectl(t, "-n", ns, "get", "configmap", "settings", "-o", "jsonpath={.metadata.resourceVersion}")

	code, stdout, stderr := cli(append([]string{"plan", "--ref", "topic", "-o", "json"}, common...)...)
	if code != 0 {
		t.Fatalf("plan topic: exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, want := range []string{`"revision": "` + topic + `"`, `"file": "manifests/configmap.yaml"`, `-  currency: EUR`, `+  currency: USD`} {
		if !strings.Contains(stdout, want) {
			t.Errorf("plan of the topic branch lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stderr, "planning "+topic[:7]+" prices in USD") {
		t.Errorf("stderr does not name the revision planned:\n%s", stderr)
	}
	if got := c.Kubectl(t, "-n", ns, "get", "configmap", "settings", "-o", "jsonpath={.metadata.resourceVersion}"); got != rv {
		t.Errorf("plan wrote the ConfigMap (%s -> %s)", rv, got)
	}
	// --source is for paths or git, not both; --ref needs --source.
	if code, _, stderr := cli("plan", "--kubeconfig", kc, "-n", ns, "--source", g.bare, "manifests"); code != 1 || !strings.Contains(stderr, "either --source or paths") {
		t.Errorf("--source with a path: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := cli("plan", "--kubeconfig", kc, "-n", ns, "--ref", "topic", "."); code != 1 || !strings.Contains(stderr, "--ref and --path go with --source") {
		t.Errorf("--ref without --source: exit %d\n%s", code, stderr)
	}
}
