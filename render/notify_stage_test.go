package render

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/testing/githubtest"
	"github.com/kubeplan/kubeplan/notify"
)

// stagedRun is failingRun stopped at stage wave 1, as serve hands it.
func stagedRun() notify.Run {
	run := failingRun()
	run.Err = errors.New("stage wave 1: applying: " + run.Err.Error())
	run.Stage = "wave 1"
	run.Failures[0].Stage = "wave 1"
	return run
}

// Every format says which stage a failed ordered run stopped at; the json
// payload carries it on the event and on each failure.
func TestPayloadsSayTheStage(t *testing.T) {
	for _, format := range notify.Formats {
		url, received := webhookBodies(t)
		observeAll(t, notify.Config{Format: format, Webhook: url}, stagedRun())
		bodies := received()
		if len(bodies) != 1 || !json.Valid(bodies[0]) {
			t.Fatalf("%s: payloads %q", format, bodies)
		}
		body := string(bodies[0])
		wants := []string{"is failing (revision 0123456, cluster prod, namespace store): stopped at stage wave 1: deployment.apps/web: CrashLoopBackOff"}
		if format != "json" {
			wants = append(wants, "Stopped at", "stage wave 1")
		}
		for _, want := range wants {
			if !strings.Contains(body, want) {
				t.Errorf("%s: payload lacks %q: %s", format, want, body)
			}
		}
		if strings.Contains(body, "s3cr3tT0k3nValue99") {
			t.Errorf("%s: the token is in the payload", format)
		}
	}
	var e notify.Event
	url, received := webhookBodies(t)
	observeAll(t, notify.Config{Webhook: url}, stagedRun())
	if err := json.Unmarshal(received()[0], &e); err != nil {
		t.Fatal(err)
	}
	if e.Stage != "wave 1" || len(e.Failures) != 1 || e.Failures[0].Stage != "wave 1" || !strings.HasPrefix(e.Error, "stage wave 1: ") {
		t.Errorf("json payload %+v", e)
	}

	// A stage that failed without a diagnosis: the error leads with the
	// stage, said once.
	run := notifyRun(0, "0123456789abcdef", errors.New("stage PreSync hooks: job.batch/migrate: forbidden\nmore"))
	run.Stage = "PreSync hooks"
	url, received = webhookBodies(t)
	observeAll(t, notify.Config{Webhook: url}, run)
	if err := json.Unmarshal(received()[0], &e); err != nil {
		t.Fatal(err)
	}
	if want := "kubeplan: project store is failing (revision 0123456, cluster prod, namespace store): stopped at stage PreSync hooks: job.batch/migrate: forbidden"; e.Summary != want {
		t.Errorf("summary %q, want %q", e.Summary, want)
	}
	// An error that does not lead with it still gets the stage.
	e.Error, e.Stage, e.Failures = "forbidden", "wave 2", nil
	if got := (NotifyWords{}).Summary(e); !strings.HasSuffix(got, ": stopped at stage wave 2: forbidden") {
		t.Errorf("summary %q", got)
	}
	// A recovery says nothing of stages.
	url, received = webhookBodies(t)
	observeAll(t, notify.Config{Webhook: url}, run, notifyRun(1, "0123456789abcdef", nil))
	var rec notify.Event
	if err := json.Unmarshal(received()[1], &rec); err != nil || rec.Kind != notify.KindRecovered || rec.Stage != "" || strings.Contains(rec.Summary, "stage") {
		t.Errorf("recovery %+v (%v)", rec, err)
	}
}

// The commit status and the drift issue name the stage.
func TestGitHubSaysTheStage(t *testing.T) {
	const repo, token = "acme/shop-config", "gh-test-token-123"
	gh := githubtest.New(t, repo, token)
	gh.Login = "kubeplan[bot]"
	observeAll(t, notify.Config{GitHubRepository: repo, GitHubToken: token, GitHubAPI: gh.APIURL()}, stagedRun())
	issues := gh.Issues(repo)
	if len(issues) != 1 || !strings.Contains(issues[0].Body, "| Stopped at stage | `wave 1` |") {
		t.Fatalf("issues %+v", issues)
	}
	desc := NotifyWords{}.StatusDescription(stagedRun(), "stage wave 1: ...")
	if !strings.HasPrefix(desc, "kubeplan: unhealthy at stage wave 1: deployment.apps/web: CrashLoopBackOff") {
		t.Errorf("status description %q", desc)
	}
}
