package main

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

// The binary with --webhook-addr, as a ServiceAccount, from a repository
// served over http with a token, at an interval of an hour: a GitLab push
// applies its commit within seconds; once the git server refuses the
// token, a push finds the source failing (reason auth), which kubeplan
// status shows under the last revision applied; once it takes the token
// again, a push recovers it. The webhook secret is in no log line.
func TestIntegrationServeWebhookBinary(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	env := serviceAccount(t, c, ns)
	bin := testkube.Kubeplan(t)
	g := newGitRepo(t)
	dir := t.TempDir()
	const token, secret = "s3cr3t-t0ken-value", "webhook-secret-7731"
	serverToken, tokenFile, secretFile := filepath.Join(dir, "server-token"), filepath.Join(dir, "token"), filepath.Join(dir, "secret")
	for f, v := range map[string]string{serverToken: token, tokenFile: token, secretFile: secret} {
		if err := os.WriteFile(f, []byte(v+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	source := gitHTTP(t, filepath.Dir(g.bare), serverToken) + filepath.Base(g.bare)
	cfg := fmt.Sprintf("projects:\n  - name: app\n    path: app\n    namespace: %s\n    applyset: configmap/app-set\n", ns)
	g.commit("first", map[string]string{"kubeplan.yaml": cfg, "app/settings.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  value: a\n"})

	p := startServe(t, bin, env, "serve", "--source", source, "--ref", "main", "--git-token-file", tokenFile, "--interval", "1h",
		"--webhook-addr", "127.0.0.1:0", "--webhook-secret-file", secretFile)
	diag := func() string { return p.logText() + "\n" + events(c, ns) }
	var hooks string
	eventually(t, "the webhooks listen", func() bool {
		for _, l := range strings.Split(p.logText(), "\n") {
			if a, ok := strings.CutPrefix(l, "kubeplan serve: push webhooks on "); ok {
				hooks, _, _ = strings.Cut(a, " ")
				return true
			}
		}
		return false
	}, diag)
	value := func() string {
		out, _ := c.TryKubectl("get", "configmap", "settings", "-n", ns, "-o", "jsonpath={.data.value}")
		return out
	}
	eventually(t, "the first commit applied", func() bool { return value() == "a" }, diag)
	push := func(commit string) int {
		t.Helper()
		body := fmt.Sprintf(`{"object_kind":"push","ref":"refs/heads/main","checkout_sha":%q}`, commit)
		req, _ := http.NewRequest("POST", "http://"+hooks+"/hooks/gitlab", strings.NewReader(body))
		req.Header.Set("X-Gitlab-Event", "Push Hook")
		req.Header.Set("X-Gitlab-Token", secret)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}

	second := g.commit("second", map[string]string{"app/settings.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  value: b\n"})
	start := time.Now()
	if code := push(second); code != http.StatusAccepted {
		t.Fatalf("push: %d\n%s", code, diag())
	}
	eventually(t, "the pushed commit applied", func() bool { return value() == "b" }, diag)
	if took := time.Since(start); took > 15*time.Second {
		t.Errorf("the push was applied after %s", took)
	}

	// The git server refuses the token: a push finds the source failing.
	if err := os.WriteFile(serverToken, []byte("another-token\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code := push(second); code != http.StatusAccepted {
		t.Fatalf("push: %d", code)
	}
	eventually(t, "the source failing", func() bool {
		m := p.metrics()
		return strings.Contains(m, "kubeplan_source_failing 1") && strings.Contains(m, `kubeplan_source_failures_total{reason="auth"} 1`)
	}, diag)
	var stdout string
	eventually(t, "kubeplan status showing it", func() bool {
		var code int
		code, stdout, _ = cli("status", "--kubeconfig", c.AdminKubeconfig(), "-n", ns, "--applyset", "configmap/app-set")
		return code == 0 && strings.Contains(stdout, "Source failing:  since ") && strings.Contains(stdout, "(auth): git source")
	}, func() string { return stdout + "\n" + diag() })
	if !strings.Contains(stdout, "Revision:        "+second) || strings.Contains(stdout, token) {
		t.Errorf("status:\n%s", stdout)
	}

	// The token is taken again: a push recovers.
	if err := os.WriteFile(serverToken, []byte(token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code := push(second); code != http.StatusAccepted {
		t.Fatalf("push: %d", code)
	}
	eventually(t, "the source recovered", func() bool {
		code, out, _ := cli("status", "--kubeconfig", c.AdminKubeconfig(), "-n", ns, "--applyset", "configmap/app-set")
		return strings.Contains(p.metrics(), "kubeplan_source_failing 0") && code == 0 && !strings.Contains(out, "Source failing")
	}, diag)
	p.stop(30 * time.Second)
	if log := p.logText(); strings.Contains(log, secret) || strings.Contains(log, token) || !strings.Contains(log, "authentication") {
		t.Errorf("log:\n%s", log)
	}
}
