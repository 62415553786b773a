package ghactions

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRunFromEnv(t *testing.T) {
	t.Setenv("GITHUB_EVENT_NAME", "pull_request_target")
	t.Setenv("GITHUB_EVENT_PATH", "/tmp/event.json")
	t.Setenv("GITHUB_REPOSITORY", "acme/shop")
	t.Setenv("GITHUB_API_URL", "https://ghe.example.com/api/v3/")
	t.Setenv("GITHUB_SERVER_URL", "https://ghe.example.com")
	t.Setenv("GITHUB_RUN_ID", "42")
	r := RunFromEnv()
	if r.APIURL != "https://ghe.example.com/api/v3" || !r.IsPullRequest() || r.URL() != "https://ghe.example.com/acme/shop/actions/runs/42" {
		t.Errorf("RunFromEnv = %+v, URL %q", r, r.URL())
	}
	t.Setenv("GITHUB_API_URL", "")
	t.Setenv("GITHUB_EVENT_NAME", "push")
	t.Setenv("GITHUB_RUN_ID", "")
	r = RunFromEnv()
	if r.APIURL != DefaultAPIURL || r.IsPullRequest() || r.URL() != "" {
		t.Errorf("RunFromEnv = %+v", r)
	}
}

func TestPullRequestNumber(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		payload string
		want    int
		err     string
	}{
		{`{"action":"synchronize","number":7,"pull_request":{"number":7,"head":{"sha":"abc"}}}`, 7, ""},
		{`{"pull_request":{"number":12}}`, 12, ""},
		{`{"number":5}`, 5, ""},
		{`{"ref":"refs/heads/main"}`, 0, "has no pull_request.number"},
		{`{"number":`, 0, "event payload"},
	} {
		p := filepath.Join(dir, "event.json")
		if err := os.WriteFile(p, []byte(c.payload), 0o644); err != nil {
			t.Fatal(err)
		}
		n, err := Run{EventPath: p}.PullRequestNumber()
		if n != c.want || (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: %d, %v; want %d, %q", c.payload, n, err, c.want, c.err)
		}
	}
	if _, err := (Run{}).PullRequestNumber(); err == nil || !strings.Contains(err.Error(), "GITHUB_EVENT_PATH") {
		t.Errorf("no path: %v", err)
	}
	if _, err := (Run{EventPath: filepath.Join(dir, "missing.json")}).PullRequestNumber(); err == nil {
		t.Error("missing payload: no error")
	}
}

func TestStepSummaryRoom(t *testing.T) {
	p := filepath.Join(t.TempDir(), "summary")
	t.Setenv(EnvStepSummary, p)
	if n, err := StepSummaryRoom(); err != nil || n != StepSummaryLimit {
		t.Errorf("no file yet: %d, %v", n, err)
	}
	if err := os.WriteFile(p, []byte(strings.Repeat("x", 1000)), 0o644); err != nil {
		t.Fatal(err)
	}
	if n, err := StepSummaryRoom(); err != nil || n != StepSummaryLimit-1000 {
		t.Errorf("after 1000 bytes: %d, %v", n, err)
	}
	if err := os.WriteFile(p, make([]byte, StepSummaryLimit+5), 0o644); err != nil {
		t.Fatal(err)
	}
	if n, err := StepSummaryRoom(); err != nil || n != 0 {
		t.Errorf("full: %d, %v", n, err)
	}
	t.Setenv(EnvStepSummary, "")
	if _, err := StepSummaryRoom(); err == nil {
		t.Error("unset: no error")
	}
}

func TestPullRequestHeadSHA(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "event.json")
	for _, c := range []struct{ payload, want, err string }{
		{`{"number":7,"pull_request":{"number":7,"head":{"sha":"abc123"}}}`, "abc123", ""},
		{`{"number":7}`, "", "no pull_request.head.sha"},
		{`{`, "", "event payload"},
	} {
		if err := os.WriteFile(p, []byte(c.payload), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := Run{EventPath: p}.PullRequestHeadSHA()
		if got != c.want || (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: %q, %v; want %q, %q", c.payload, got, err, c.want, c.err)
		}
	}
}

func TestRunPush(t *testing.T) {
	env := Env(func(k string) string {
		return map[string]string{"GITHUB_EVENT_NAME": "push", "GITHUB_SHA": "f00d", "GITHUB_REF": "refs/heads/main"}[k]
	})
	r := env.Run()
	if !r.IsPush() || r.SHA != "f00d" || r.Branch() != "main" {
		t.Errorf("Run = %+v, branch %q", r, r.Branch())
	}
	if b := (Run{Ref: "refs/tags/v1"}).Branch(); b != "" {
		t.Errorf("a tag's branch = %q", b)
	}
}
