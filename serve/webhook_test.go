package serve

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

const testSecret = "s3cret-webhook-key"

// hookTest is a webhooks receiver of branch main with the pushes it
// accepted.
type hookTest struct {
	wh     *webhooks
	m      *metrics
	pushes []push
	logs   []string
}

func newHookTest(t *testing.T) *hookTest {
	t.Helper()
	file := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(file, []byte(testSecret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	h := &hookTest{m: newMetrics(newClusters(nil))}
	h.wh = &webhooks{secretFile: file, branch: "main", m: h.m,
		pushed: func(_ string, p push) { h.pushes = append(h.pushes, p) },
		logf:   func(f string, a ...any) { h.logs = append(h.logs, f) }}
	return h
}

// send posts body to provider's path with headers; it returns the
// status and the answer.
func (h *hookTest) send(method, provider, body string, headers map[string]string) (int, string) {
	req := httptest.NewRequest(method, "/hooks/"+provider, strings.NewReader(body))
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	newWebhookServer(h.wh).Handler.ServeHTTP(rec, req)
	return rec.Code, rec.Body.String()
}

func (h *hookTest) count(provider, result string) float64 {
	return testutil.ToFloat64(h.m.webhooks.WithLabelValues(provider, result))
}

const githubPush = `{"ref":"refs/heads/main","after":"0123456789abcdef0123456789abcdef01234567","deleted":false}`

func sign(body string) string { return Sign([]byte(testSecret), []byte(body)) }

// TestWebhookSignatures: each provider's good request is a push; a
// missing or wrong signature (or token) is 401 and no push; another
// event, branch or a tag is 202 and ignored; GitHub's ping is 200; an
// oversized body 413; another method 405. Each is counted by provider and
// result, and the secret is in no answer.
func TestWebhookSignatures(t *testing.T) {
	gitlabPush := `{"object_kind":"push","ref":"refs/heads/main","checkout_sha":"89abcdef0123456789abcdef0123456789abcdef","after":"89abcdef0123456789abcdef0123456789abcdef"}`
	generic := `{"ref":"main","commit":"fedcba9876543210fedcba9876543210fedcba98"}`
	big := `{"ref":"refs/heads/main","pad":"` + strings.Repeat("x", MaxWebhookBody) + `"}`
	cases := []struct {
		name, method, provider, body string
		headers                      map[string]string
		status                       int
		result                       string
		push                         *push
	}{
		{"github good", "POST", ProviderGitHub, githubPush, map[string]string{"X-GitHub-Event": "push", "X-Hub-Signature-256": sign(githubPush)},
			202, hookAccepted, &push{branch: "main", commit: "0123456789abcdef0123456789abcdef01234567"}},
		{"github bad signature", "POST", ProviderGitHub, githubPush, map[string]string{"X-GitHub-Event": "push", "X-Hub-Signature-256": Sign([]byte("other"), []byte(githubPush))},
			401, hookUnauthorized, nil},
		{"github signature of another body", "POST", ProviderGitHub, githubPush, map[string]string{"X-GitHub-Event": "push", "X-Hub-Signature-256": sign(githubPush + " ")},
			401, hookUnauthorized, nil},
		{"github sha1 only", "POST", ProviderGitHub, githubPush, map[string]string{"X-GitHub-Event": "push", "X-Hub-Signature": "sha1=0000"},
			401, hookUnauthorized, nil},
		{"github missing", "POST", ProviderGitHub, githubPush, map[string]string{"X-GitHub-Event": "push"}, 401, hookUnauthorized, nil},
		{"github ping", "POST", ProviderGitHub, `{"zen":"x"}`, map[string]string{"X-GitHub-Event": "ping", "X-Hub-Signature-256": sign(`{"zen":"x"}`)},
			200, hookPing, nil},
		{"github wrong event", "POST", ProviderGitHub, `{}`, map[string]string{"X-GitHub-Event": "issues", "X-Hub-Signature-256": sign(`{}`)},
			202, hookIgnored, nil},
		{"github unsigned wrong event", "POST", ProviderGitHub, `{}`, map[string]string{"X-GitHub-Event": "issues"}, 401, hookUnauthorized, nil},
		{"github other branch", "POST", ProviderGitHub, strings.Replace(githubPush, "main", "dev", 1),
			map[string]string{"X-GitHub-Event": "push", "X-Hub-Signature-256": sign(strings.Replace(githubPush, "main", "dev", 1))}, 202, hookIgnored, nil},
		{"github tag", "POST", ProviderGitHub, strings.Replace(githubPush, "heads/main", "tags/v1", 1),
			map[string]string{"X-GitHub-Event": "push", "X-Hub-Signature-256": sign(strings.Replace(githubPush, "heads/main", "tags/v1", 1))}, 202, hookIgnored, nil},
		{"github deleted branch", "POST", ProviderGitHub, `{"ref":"refs/heads/main","after":"0000000000000000000000000000000000000000","deleted":true}`,
			map[string]string{"X-GitHub-Event": "push", "X-Hub-Signature-256": sign(`{"ref":"refs/heads/main","after":"0000000000000000000000000000000000000000","deleted":true}`)}, 202, hookIgnored, nil},
		{"github not json", "POST", ProviderGitHub, `nope`, map[string]string{"X-GitHub-Event": "push", "X-Hub-Signature-256": sign(`nope`)}, 400, hookInvalid, nil},
		{"github oversized", "POST", ProviderGitHub, big, map[string]string{"X-GitHub-Event": "push", "X-Hub-Signature-256": sign(big)}, 413, hookTooLarge, nil},
		{"github GET", "GET", ProviderGitHub, "", nil, 405, hookMethod, nil},
		{"gitlab good", "POST", ProviderGitLab, gitlabPush, map[string]string{"X-Gitlab-Event": "Push Hook", "X-Gitlab-Token": testSecret},
			202, hookAccepted, &push{branch: "main", commit: "89abcdef0123456789abcdef0123456789abcdef"}},
		{"gitlab bad token", "POST", ProviderGitLab, gitlabPush, map[string]string{"X-Gitlab-Event": "Push Hook", "X-Gitlab-Token": testSecret + "x"}, 401, hookUnauthorized, nil},
		{"gitlab missing", "POST", ProviderGitLab, gitlabPush, map[string]string{"X-Gitlab-Event": "Push Hook"}, 401, hookUnauthorized, nil},
		{"gitlab other branch", "POST", ProviderGitLab, strings.ReplaceAll(gitlabPush, "heads/main", "heads/feature"),
			map[string]string{"X-Gitlab-Event": "Push Hook", "X-Gitlab-Token": testSecret}, 202, hookIgnored, nil},
		{"gitlab wrong event", "POST", ProviderGitLab, gitlabPush, map[string]string{"X-Gitlab-Event": "Tag Push Hook", "X-Gitlab-Token": testSecret}, 202, hookIgnored, nil},
		{"generic good", "POST", ProviderGeneric, generic, map[string]string{SignatureHeader: sign(generic)},
			202, hookAccepted, &push{branch: "main", commit: "fedcba9876543210fedcba9876543210fedcba98"}},
		{"generic bad", "POST", ProviderGeneric, generic, map[string]string{SignatureHeader: "sha256=" + strings.Repeat("0", 64)}, 401, hookUnauthorized, nil},
		{"generic missing", "POST", ProviderGeneric, generic, nil, 401, hookUnauthorized, nil},
		{"generic empty", "POST", ProviderGeneric, `{}`, map[string]string{SignatureHeader: sign(`{}`)}, 400, hookInvalid, nil},
		{"generic oversized", "POST", ProviderGeneric, big, map[string]string{SignatureHeader: sign(big)}, 413, hookTooLarge, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHookTest(t)
			status, answer := h.send(tc.method, tc.provider, tc.body, tc.headers)
			if status != tc.status {
				t.Errorf("status %d (%q), want %d", status, answer, tc.status)
			}
			if got := h.count(tc.provider, tc.result); got != 1 {
				t.Errorf("kubeplan_webhook_requests_total{provider=%q,result=%q} = %v, want 1 (answer %q)", tc.provider, tc.result, got, answer)
			}
			if strings.Contains(answer, testSecret) {
				t.Errorf("the answer holds the secret: %q", answer)
			}
			switch {
			case tc.push == nil && len(h.pushes) != 0:
				t.Errorf("pushes %+v, want none", h.pushes)
			case tc.push != nil && (len(h.pushes) != 1 || h.pushes[0] != *tc.push):
				t.Errorf("pushes %+v, want %+v", h.pushes, *tc.push)
			}
		})
	}
}

// TestWebhookSecretFile: the secret is read at each request (a rotated
// Secret is taken at once); one that cannot be read refuses every push
// (500, counted as error) and is logged without its value.
func TestWebhookSecretFile(t *testing.T) {
	h := newHookTest(t)
	if err := os.WriteFile(h.wh.secretFile, []byte("rotated\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	headers := map[string]string{"X-GitHub-Event": "push", "X-Hub-Signature-256": sign(githubPush)}
	if status, _ := h.send("POST", ProviderGitHub, githubPush, headers); status != 401 {
		t.Errorf("the old secret after a rotation: %d, want 401", status)
	}
	headers["X-Hub-Signature-256"] = Sign([]byte("rotated"), []byte(githubPush))
	if status, _ := h.send("POST", ProviderGitHub, githubPush, headers); status != 202 || len(h.pushes) != 1 {
		t.Errorf("the rotated secret: %d, pushes %v", status, h.pushes)
	}
	if err := os.WriteFile(h.wh.secretFile, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if status, _ := h.send("POST", ProviderGitHub, githubPush, headers); status != 500 || len(h.pushes) != 1 || h.count(ProviderGitHub, hookFailed) != 1 {
		t.Errorf("an empty secret file: %d, pushes %v", status, h.pushes)
	}
	if _, err := readSecret(h.wh.secretFile); err == nil || !strings.Contains(err.Error(), "is empty") {
		t.Errorf("readSecret of an empty file: %v", err)
	}
	for _, l := range h.logs {
		if bytes.Contains([]byte(l), []byte("rotated")) {
			t.Errorf("the log holds the secret: %q", l)
		}
	}
}

// TestWebhookAnyBranch: without a --ref, a push of any branch is taken.
func TestWebhookAnyBranch(t *testing.T) {
	h := newHookTest(t)
	h.wh.branch = ""
	body := strings.Replace(githubPush, "main", "release", 1)
	if status, _ := h.send(http.MethodPost, ProviderGitHub, body, map[string]string{"X-GitHub-Event": "push", "X-Hub-Signature-256": sign(body)}); status != 202 ||
		len(h.pushes) != 1 || h.pushes[0].branch != "release" {
		t.Errorf("status %d, pushes %v", status, h.pushes)
	}
}
