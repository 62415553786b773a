package notify_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/testing/githubtest"
	. "github.com/kubeplan/kubeplan/notify"
	"github.com/kubeplan/kubeplan/render"
)

const (
	repo    = "acme/shop-config"
	ghToken = "gh-test-token-123"
	revA    = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	revB    = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
)

func newGitHub(t *testing.T) *githubtest.Server {
	gh := githubtest.New(t, repo, ghToken)
	gh.Login = "kubeplan[bot]"
	return gh
}

func ghNotifier(t *testing.T, gh *githubtest.Server) *Notifier {
	return newNotifier(t, Config{GitHubRepository: repo, GitHubToken: ghToken, GitHubAPI: gh.APIURL()})
}

func scheduled(r Run) Run {
	r.Scheduled = true
	return r
}

// TestCommitStatusPerRevision: one status per revision and result, not one per run.
func TestCommitStatusPerRevision(t *testing.T) {
	gh := newGitHub(t)
	n := ghNotifier(t, gh)
	observe(t, n, run(0, revA, nil))
	observe(t, n, scheduled(run(1, revA, nil)))
	observe(t, n, scheduled(run(2, revA, nil)))
	if got := gh.Statuses(repo, revA); len(got) != 1 || got[0].State != "success" || got[0].Context != "kubeplan/store" ||
		got[0].Description != "applied: 1 applied, 0 pruned, 9 unchanged" {
		t.Fatalf("statuses on A after three good runs: %+v", got)
	}
	long := errors.New(strings.Repeat("deployment.apps/web: 0/3 available: ImagePullBackOff; ", 10))
	observe(t, n, scheduled(run(3, revA, long)))
	observe(t, n, scheduled(run(4, revA, long)))
	got := gh.Statuses(repo, revA)
	if len(got) != 2 || got[1].State != "failure" || !strings.HasPrefix(got[1].Description, "kubeplan could not apply: deployment.apps/web") ||
		len([]rune(got[1].Description)) != 140 || !strings.HasSuffix(got[1].Description, "…") {
		t.Fatalf("statuses on A after two failures: %+v", got)
	}
	observe(t, n, run(5, revB, nil))
	observe(t, n, scheduled(run(6, revB, nil)))
	if got := gh.Statuses(repo, revB); len(got) != 1 || got[0].State != "success" {
		t.Fatalf("statuses on B: %+v", got)
	}
	if got := len(gh.AllStatuses()); got != 3 {
		t.Errorf("%d statuses in all, want 3", got)
	}
	posts := 0
	for _, req := range gh.Requests() {
		if strings.HasPrefix(req.Path, "/repos/acme/shop-config/statuses/") && req.Method == "POST" {
			posts++
		}
	}
	if posts != 3 {
		t.Errorf("%d status requests for 3 statuses", posts)
	}
}

// TestDriftIssueOpenedOnceClosedOnRecovery follows one drift-repair incident.
func TestDriftIssueOpenedOnceClosedOnRecovery(t *testing.T) {
	gh := newGitHub(t)
	n := ghNotifier(t, gh)
	observe(t, n, run(0, revA, nil))
	// A new revision that fails is no drift issue (its commit status says it).
	observe(t, n, run(1, revB, errors.New("dry-run failed")))
	observe(t, n, run(2, revA, nil))
	if got := gh.Issues(repo); len(got) != 0 {
		t.Fatalf("issues after a failing new revision: %+v", got)
	}
	gh.ResetLog()
	observe(t, n, scheduled(run(3, revA, errors.New("deployment.apps/web: conflict with kubectl-edit"))))
	observe(t, n, scheduled(run(4, revA, errors.New("deployment.apps/web: conflict with kubectl-edit"))))
	observe(t, n, scheduled(run(5, revA, errors.New("another error"))))
	issues := gh.Issues(repo)
	if len(issues) != 1 || issues[0].State != "open" || issues[0].Title != "kubeplan: drift repair of project store is failing" ||
		len(issues[0].Labels) != 1 || issues[0].Labels[0] != DriftLabel ||
		!strings.Contains(issues[0].Body, "conflict with kubectl-edit") || !strings.Contains(issues[0].Body, "| Revision | `"+revA+"` |") {
		t.Fatalf("issues after three failing drift repairs: %+v", issues)
	}
	searches, creates := 0, 0
	for _, c := range gh.Calls() {
		if strings.HasPrefix(c, "GET /repos/acme/shop-config/issues?") {
			searches++
		}
		if c == "POST /repos/acme/shop-config/issues" {
			creates++
		}
	}
	if searches != 1 || creates != 1 {
		t.Errorf("calls: want one search and one create:\n%s", strings.Join(gh.Calls(), "\n"))
	}
	observe(t, n, scheduled(run(6, revA, nil)))
	observe(t, n, scheduled(run(7, revA, nil)))
	issues = gh.Issues(repo)
	if len(issues) != 1 || issues[0].State != "closed" || issues[0].StateReason != "completed" {
		t.Fatalf("issue after recovery: %+v", issues)
	}
	comments := gh.Comments(repo, issues[0].Number)
	if len(comments) != 1 || !strings.HasPrefix(comments[0].Body, "Project `store` recovered: revision `aaaaaaa` applied at 2026-11-30T12:06:03Z") {
		t.Fatalf("comments on the issue: %+v", comments)
	}
}

// An open drift issue from before (another process, a lost state) is
// found and kept, not duplicated; pull requests and other titles do not match.
func TestDriftIssueFoundNotDuplicated(t *testing.T) {
	gh := newGitHub(t)
	gh.AddIssue(repo, "kubeplan[bot]", render.NotifyWords{}.DriftTitle("store"), []string{"bug"}, false)     // not labelled
	gh.AddIssue(repo, "someone", render.NotifyWords{}.DriftTitle("store"), []string{DriftLabel}, true)       // a pull request
	gh.AddIssue(repo, "kubeplan[bot]", render.NotifyWords{}.DriftTitle("shop"), []string{DriftLabel}, false) // another project
	want := gh.AddIssue(repo, "kubeplan[bot]", render.NotifyWords{}.DriftTitle("store"), []string{DriftLabel}, false)
	n := ghNotifier(t, gh)
	observe(t, n, scheduled(run(0, revA, errors.New("boom"))))
	if got := len(gh.Issues(repo)); got != 4 {
		t.Fatalf("%d issues, want the 4 there were", got)
	}
	// Restarted without state: recovery still closes it.
	n = ghNotifier(t, gh)
	Projects(n)["store"] = ProjectState{Failing: true}
	observe(t, n, run(1, revA, nil))
	for _, is := range gh.Issues(repo) {
		if wantClosed := is.Number == want; (is.State == "closed") != wantClosed {
			t.Errorf("issue #%d %q (labels %v) is %s", is.Number, is.Title, is.Labels, is.State)
		}
	}
}

// GitHub answering 502 twice is retried; a 401 is not, and says why.
func TestGitHubRetries(t *testing.T) {
	gh := newGitHub(t)
	gh.FailNext(502, 503)
	n := ghNotifier(t, gh)
	observe(t, n, run(0, revA, nil))
	if got := len(gh.Statuses(repo, revA)); got != 1 || len(gh.Requests()) != 3 {
		t.Fatalf("%d statuses after %d requests: want 1 after 3", got, len(gh.Requests()))
	}
	bad := newNotifier(t, Config{GitHubRepository: repo, GitHubToken: "wrong-token", GitHubAPI: gh.APIURL()})
	gh.ResetLog()
	err := bad.Observe(context.Background(), run(1, revB, nil))
	if err == nil || !strings.Contains(err.Error(), "401 Bad credentials") || len(gh.Requests()) != 1 {
		t.Fatalf("a refused token: %v after %d requests", err, len(gh.Requests()))
	}
	if strings.Contains(err.Error(), "wrong-token") {
		t.Errorf("the token is in the error: %v", err)
	}
	// Not recorded: the next run tries again.
	gh.ResetLog()
	_ = bad.Observe(context.Background(), run(2, revB, nil))
	if len(gh.Requests()) != 1 {
		t.Errorf("the status refused before was not tried again")
	}
}

// A drift issue deleted meanwhile is forgotten, not retried forever.
func TestDriftIssueGone(t *testing.T) {
	gh := newGitHub(t)
	n := ghNotifier(t, gh)
	Projects(n)["store"] = ProjectState{Failing: true, DriftIssue: 42, Status: revA + " failure"}
	if err := n.Observe(context.Background(), run(0, revA, nil)); err != nil {
		t.Fatalf("closing a deleted issue: %v", err)
	}
	if st := Projects(n)["store"]; st.DriftIssue != 0 || st.Failing {
		t.Fatalf("state after recovery: %+v", st)
	}
	gh.ResetLog()
	observe(t, n, run(1, revA, nil))
	if calls := gh.Calls(); len(calls) != 0 {
		t.Errorf("a healthy run after that made requests: %v", calls)
	}
}

// A run with yield hints opens one issue with the suggested rules, labelled
// DriftLabel; later hints for the project while it is open add none, and
// runs without hints leave it alone.
func TestYieldIssueOpenedOnce(t *testing.T) {
	gh := newGitHub(t)
	n := ghNotifier(t, gh)
	observe(t, n, scheduled(run(0, revA, nil)))
	r := scheduled(run(1, revA, nil))
	r.YieldHints = []string{`spec.replicas of deployment.apps/web was set by keda-operator and taken back in 3 runs in a row; to leave it to keda-operator, add to kubeplan.yaml: yield: [{kind: Deployment, group: apps, paths: ["spec.replicas"]}] (docs/yield.md); or stop keda-operator from writing it`}
	observe(t, n, r)
	observe(t, n, scheduled(run(2, revA, nil)))
	r2 := scheduled(run(3, revA, nil))
	r2.YieldHints = []string{"data.value of configmap/settings was set by other ..."}
	observe(t, n, r2)
	issues := gh.Issues(repo)
	if len(issues) != 1 || issues[0].State != "open" || issues[0].Title != "kubeplan: project store keeps taking fields back from another controller" ||
		len(issues[0].Labels) != 1 || issues[0].Labels[0] != DriftLabel ||
		!strings.Contains(issues[0].Body, `yield: [{kind: Deployment, group: apps, paths: ["spec.replicas"]}]`) || !strings.Contains(issues[0].Body, "revision `aaaaaaa`") {
		t.Fatalf("issues: %+v", issues)
	}
}
