package packaging

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

// TestIntegrationPrePushHook installs examples/git/pre-push in a real
// repository and pushes to a bare remote: a manifest with a schema error
// stops the push (nothing reaches the remote), a good one is pushed after
// its plan against the cluster is shown, and the plan writes nothing.
func TestIntegrationPrePushHook(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	kc := c.Narrow(t, "dev", ns)
	bin := kubeplanBinary(t)

	root := t.TempDir()
	bare, clone := filepath.Join(root, "shop.git"), filepath.Join(root, "shop")
	git := func(dir string, args ...string) (string, error) {
		cmd := exec.Command("git", append([]string{"-c", "user.name=dev", "-c", "user.email=dev@example.com"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(baseEnv(), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"),
			"KUBECONFIG="+kc, "KUBEPLAN_NAMESPACE="+ns, "NO_COLOR=1", "KUBEPLAN_CACHE_DIR="+t.TempDir())
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	must := func(dir string, args ...string) string {
		t.Helper()
		out, err := git(dir, args...)
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return out
	}
	must(root, "init", "-q", "--bare", "-b", "main", bare)
	must(root, "clone", "-q", bare, clone)
	must(clone, "checkout", "-q", "-b", "main")
	hook, err := os.ReadFile(filepath.Join(repoRoot(t), "examples", "git", "pre-push"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(clone, ".git", "hooks", "pre-push"), hook, 0o755); err != nil {
		t.Fatal(err)
	}
	deployment := strings.Replace(badDeployment, "  namespace: store\n", "", 1)
	write := func(body string) {
		t.Helper()
		os.MkdirAll(filepath.Join(clone, "manifests"), 0o755)
		if err := os.WriteFile(filepath.Join(clone, "manifests", "deployment.yaml"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	write(deployment)
	must(clone, "add", "-A")
	must(clone, "commit", "-q", "-m", "three replicas")
	out, err := git(clone, "push", "-q", "origin", "main")
	if err == nil || !strings.Contains(out, "manifests/deployment.yaml:6:13: error schema: spec.replicas must be an integer") || !strings.Contains(out, "pre-push: kubeplan lint failed") {
		t.Fatalf("push of a bad manifest: %v\n%s", err, out)
	}
	if refs := must(bare, "for-each-ref"); refs != "" {
		t.Errorf("the refused push reached the remote: %s", refs)
	}

	write(strings.Replace(deployment, "replicas: three", "replicas: 3", 1))
	must(clone, "commit", "-q", "-am", "3 replicas")
	out, err = git(clone, "push", "-q", "origin", "main")
	if err != nil || !strings.Contains(out, "+ create deployment.apps/web (manifests/deployment.yaml:1:1)") || !strings.Contains(out, "Plan: 1 to add, 0 to change, 0 to prune, 0 unchanged.") {
		t.Fatalf("push of a good manifest: %v\n%s", err, out)
	}
	if head, remote := must(clone, "rev-parse", "HEAD"), must(bare, "rev-parse", "main"); head != remote {
		t.Errorf("remote main %s, pushed HEAD %s", remote, head)
	}
	if _, err := c.TryKubectl("-n", ns, "get", "deployment", "web"); err == nil {
		t.Error("the plan in the hook created the deployment")
	}
}

// TestPrePushShellcheck holds the hook to POSIX sh and shellcheck's rules.
func TestPrePushShellcheck(t *testing.T) {
	sc := lookPath(t, "shellcheck", "shellcheck")
	out, err := exec.Command(sc, "--shell=sh", filepath.Join(repoRoot(t), "examples", "git", "pre-push")).CombinedOutput()
	if err != nil {
		t.Errorf("shellcheck examples/git/pre-push: %v\n%s", err, out)
	}
}
