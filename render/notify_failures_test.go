package render

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/health"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/internal/testing/githubtest"
	"github.com/kubeplan/kubeplan/notify"
)

// crashLoopWorkload is a Deployment whose two pods crash-loop, its log
// masked by the wait, with a token a notification must scrub in its
// termination message.
func crashLoopWorkload() health.Result {
	return health.Result{Ref: kube.Ref{Group: "apps", Version: "v1", Kind: "Deployment", Namespace: "store", Name: "web"}, Status: "Failed",
		Diagnosis: &health.Diagnosis{Source: "deploy/web.yaml:1:1", Causes: []health.Cause{{Signal: health.Signal{Pod: "web-7d9c-abcde", Container: "main",
			Reason: "CrashLoopBackOff", Message: "back-off 10s restarting failed container", Restarts: 3, ExitCode: 1,
			TerminationMessage: "cannot connect: Authorization: Bearer s3cr3tT0k3nValue99\nsecond line"}, Pods: 2, Log: []string{"connecting with password ***"}}}}}
}

func TestFailureLine(t *testing.T) {
	r := crashLoopWorkload()
	if got, want := FailureLine(r), "deployment.apps/web: CrashLoopBackOff: container main exit code 1: cannot connect: Authorization: Bearer s3cr3tT0k3nValue99 (2 pods)"; got != want {
		t.Errorf("line %q, want %q", got, want)
	}
	pull := health.Result{Ref: kube.Ref{Version: "v1", Kind: "Pod", Name: "api"}, Status: "Failed", Diagnosis: &health.Diagnosis{Causes: []health.Cause{
		{Signal: health.Signal{Container: "api", Init: true, Reason: "ImagePullBackOff", Message: "Back-off pulling image \"api:nope\"\x1b[2J"}, Pods: 1},
		{Signal: health.Signal{Container: "side", Reason: "CrashLoopBackOff"}, Pods: 1}}}}
	if got, want := FailureLine(pull), `pod/api: ImagePullBackOff: init container api: Back-off pulling image "api:nope"\x1b[2J and 1 other cause`; got != want {
		t.Errorf("line %q, want %q", got, want)
	}
	timeout := health.Result{Ref: kube.Ref{Group: "apps", Version: "v1", Kind: "Deployment", Name: "db"}, Status: "InProgress", Message: "0/1 available", Diagnosis: &health.Diagnosis{}}
	if got, want := FailureLine(timeout), "deployment.apps/db: InProgress: 0/1 available"; got != want {
		t.Errorf("line %q, want %q", got, want)
	}
}

// A failed health wait's Event note names each workload's reason rather
// than the error's text, within the API server's limit.
func TestEventNoteOfAFailedWait(t *testing.T) {
	err := fmt.Errorf("apply: %w", &health.UnhealthyError{Results: []health.Result{crashLoopWorkload()}})
	got := EventNote(EventRun{Revision: "0123456789abcdef", Err: err})
	if !strings.HasPrefix(got, "revision 0123456: deployment.apps/web: CrashLoopBackOff: container main exit code 1: ") || !strings.HasSuffix(got, " (2 pods)") {
		t.Errorf("note %q", got)
	}
	var many []health.Result
	for range 30 {
		many = append(many, crashLoopWorkload())
	}
	got = EventNote(EventRun{Revision: "0123456789abcdef", Err: &health.UnhealthyError{Results: many}})
	if len(got) > MaxEventNote || !strings.HasSuffix(got, "...") {
		t.Errorf("a note of 30 workloads is %d bytes", len(got))
	}
}

// failingRun is the golden run failing with a crash loop's diagnosis,
// as serve hands it to the notifier.
func failingRun() notify.Run {
	r := crashLoopWorkload()
	err := &health.UnhealthyError{Results: []health.Result{r}}
	run := goldenRun(err)
	run.Failures = []notify.Failure{{Workload: r.Ref.String(), Namespace: "store", Reason: "CrashLoopBackOff", Source: r.Diagnosis.Source, Summary: FailureLine(r)}}
	return run
}

// Every format carries the failures, their reason and source, with the
// token scrubbed.
func TestPayloadFailuresGolden(t *testing.T) {
	for _, format := range notify.Formats {
		url, received := webhookBodies(t)
		observeAll(t, notify.Config{Format: format, Webhook: url}, failingRun())
		bodies := received()
		if len(bodies) != 1 || !json.Valid(bodies[0]) {
			t.Fatalf("%s: payloads %q", format, bodies)
		}
		var pretty bytes.Buffer
		if err := json.Indent(&pretty, bodies[0], "", "  "); err != nil {
			t.Fatal(err)
		}
		pretty.WriteByte('\n')
		golden(t, "notify/"+format+"-failing-workloads.golden.json", pretty.Bytes())
		body := string(bodies[0])
		if strings.Contains(body, "s3cr3tT0k3nValue99") {
			t.Errorf("%s: the token is in the payload: %s", format, body)
		}
		for _, want := range []string{"CrashLoopBackOff", "deployment.apps/web", "deploy/web.yaml:1:1", "container main exit code 1"} {
			if !strings.Contains(body, want) {
				t.Errorf("%s: payload lacks %q: %s", format, want, body)
			}
		}
	}
	var e notify.Event
	url, received := webhookBodies(t)
	observeAll(t, notify.Config{Webhook: url}, failingRun())
	if err := json.Unmarshal(received()[0], &e); err != nil {
		t.Fatal(err)
	}
	if e.Version != 1 || len(e.Failures) != 1 || e.Failures[0].Reason != "CrashLoopBackOff" || e.Failures[0].Source != "deploy/web.yaml:1:1" ||
		!strings.HasPrefix(e.Summary, "kubeplan: project store is failing (revision 0123456, cluster prod, namespace store): deployment.apps/web: CrashLoopBackOff") {
		t.Errorf("json payload %+v", e)
	}
}

// The commit status and the drift issue name the failed workloads.
func TestGitHubFailures(t *testing.T) {
	const repo, token = "acme/shop-config", "gh-test-token-123"
	gh := githubtest.New(t, repo, token)
	gh.Login = "kubeplan[bot]"
	observeAll(t, notify.Config{GitHubRepository: repo, GitHubToken: token, GitHubAPI: gh.APIURL()}, failingRun())
	issues := gh.Issues(repo)
	if len(issues) != 1 {
		t.Fatalf("issues %+v", issues)
	}
	golden(t, "notify/drift-issue-failures.golden.md", []byte(issues[0].Body))
	if strings.Contains(issues[0].Body, "s3cr3tT0k3nValue99") {
		t.Errorf("the token is in the issue: %s", issues[0].Body)
	}
	desc := NotifyWords{}.StatusDescription(failingRun(), "1 object failed")
	if !strings.HasPrefix(desc, "kubeplan: unhealthy: deployment.apps/web: CrashLoopBackOff: container main exit code 1") {
		t.Errorf("status description %q", desc)
	}
	if desc := (NotifyWords{}).StatusDescription(notifyRun(0, "abc", errors.New("lint found 1 error(s)\nmore")), "lint found 1 error(s)\nmore"); desc != "kubeplan could not apply: lint found 1 error(s)" {
		t.Errorf("status description of a run without failures %q", desc)
	}
}

// The Event note scrubs the credentials a termination message quotes.
func TestEventNoteScrubs(t *testing.T) {
	err := &health.UnhealthyError{Results: []health.Result{crashLoopWorkload()}}
	if got := EventNote(EventRun{Revision: "0123456789abcdef", Err: err}); strings.Contains(got, "s3cr3tT0k3nValue99") || !strings.Contains(got, "Bearer ***") {
		t.Errorf("note %q", got)
	}
}
