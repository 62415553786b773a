package render

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/internal/testing/githubtest"
	"github.com/kubeplan/kubeplan/notify"
)

var notifyT0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// notifyRun is the i-th run of project store, failing with err when it is
// not nil.
func notifyRun(i int, rev string, err error) notify.Run {
	return notify.Run{Project: "store", Revision: rev, Cluster: "prod", Namespace: "store", ApplySet: "configmap/gitops-applyset",
		Err: err, Applied: 1, Unchanged: 9, Start: notifyT0.Add(time.Duration(i) * time.Minute), End: notifyT0.Add(time.Duration(i)*time.Minute + 3*time.Second)}
}

// goldenRun is the run behind the golden payloads.
func goldenRun(err error) notify.Run {
	r := notifyRun(0, "0123456789abcdef0123456789abcdef01234567", err)
	r.Scheduled = true
	r.Drift = true
	return r
}

// webhookBodies starts a webhook receiver and returns its URL and what
// it received.
func webhookBodies(t *testing.T) (string, func() [][]byte) {
	var mu sync.Mutex
	var bodies [][]byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		defer mu.Unlock()
		bodies = append(bodies, b)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/T000/B000/XXXX", func() [][]byte {
		mu.Lock()
		defer mu.Unlock()
		return bodies
	}
}

func observeAll(t *testing.T, cfg notify.Config, runs ...notify.Run) {
	t.Helper()
	cfg.Words = NotifyWords{}
	n, err := notify.New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		if err := n.Observe(context.Background(), r); err != nil {
			t.Fatal(err)
		}
	}
}

// TestPayloadGolden fixes the bytes each format sends, for a failure (with
// a token in its error, scrubbed) and a recovery: what a Notifier with
// NotifyWords posts.
func TestPayloadGolden(t *testing.T) {
	failErr := errors.New(`deployment.apps/web: apply: Patch "https://10.0.0.1:6443/apis/apps/v1/namespaces/store/deployments/web": Authorization: Bearer s3cr3tT0k3nValue99 refused <&>
second line`)
	for _, format := range notify.Formats {
		url, received := webhookBodies(t)
		observeAll(t, notify.Config{Format: format, Webhook: url},
			goldenRun(failErr), notifyRun(9, "fedcba9876543210fedcba9876543210fedcba98", nil))
		bodies := received()
		if len(bodies) != 2 {
			t.Fatalf("%s: %d payloads, want failing and recovered", format, len(bodies))
		}
		for i, name := range []string{"failing", "recovered"} {
			body := bodies[i]
			if !json.Valid(body) {
				t.Fatalf("not JSON: %s", body)
			}
			var pretty bytes.Buffer
			if err := json.Indent(&pretty, body, "", "  "); err != nil {
				t.Fatal(err)
			}
			pretty.WriteByte('\n')
			golden(t, "notify/"+format+"-"+name+".golden.json", pretty.Bytes())
			if bytes.Contains(body, []byte("s3cr3tT0k3nValue99")) {
				t.Errorf("the token is in the payload: %s", body)
			}
		}
	}
	if _, err := (NotifyWords{}).Payload("xml", notify.Event{}); err == nil {
		t.Error("an unknown format has a payload")
	}
}

// The Slack payload stays within Slack's limits for a long error.
func TestSlackLimits(t *testing.T) {
	url, received := webhookBodies(t)
	observeAll(t, notify.Config{Format: "slack", Webhook: url}, notifyRun(0, "abc", errors.New(string(bytes.Repeat([]byte("x"), 10000)))))
	var msg struct {
		Text   string
		Blocks []struct {
			Type string
			Text *struct{ Text string }
		}
	}
	if bodies := received(); len(bodies) != 1 || json.Unmarshal(bodies[0], &msg) != nil {
		t.Fatalf("payloads %q", bodies)
	}
	for _, b := range msg.Blocks {
		if b.Text == nil {
			continue
		}
		if n := len([]rune(b.Text.Text)); b.Type == "section" && n > 3000 || b.Type == "header" && n > 150 {
			t.Errorf("%s block of %d characters", b.Type, n)
		}
	}
}

// TestDriftIssueGolden fixes the drift issue's text, as a Notifier with
// NotifyWords opens it on GitHub.
func TestDriftIssueGolden(t *testing.T) {
	const repo, token = "acme/shop-config", "gh-test-token-123"
	gh := githubtest.New(t, repo, token)
	gh.Login = "kubeplan[bot]"
	observeAll(t, notify.Config{GitHubRepository: repo, GitHubToken: token, GitHubAPI: gh.APIURL()},
		goldenRun(errors.New("deployment.apps/web: apply: conflict with \"kubectl-edit\" on spec.replicas\n```injected fence```")))
	issues := gh.Issues(repo)
	if len(issues) != 1 {
		t.Fatalf("issues %+v", issues)
	}
	golden(t, "notify/drift-issue.golden.md", []byte(issues[0].Body))
}
