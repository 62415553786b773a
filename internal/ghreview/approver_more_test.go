package ghreview

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/kubeplan/kubeplan/internal/guard"
	"github.com/kubeplan/kubeplan/internal/testing/githubtest"
)

func TestFromEnv(t *testing.T) {
	in := map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "push", "GITHUB_REPOSITORY": repo}
	for _, c := range []struct {
		name, key, value, token string
		want                    bool
	}{
		{"push", "", "", token, true},
		{"pull_request", "GITHUB_EVENT_NAME", "pull_request", token, true},
		{"pull_request_target", "GITHUB_EVENT_NAME", "pull_request_target", token, true},
		{"schedule", "GITHUB_EVENT_NAME", "schedule", token, false},
		{"workflow_dispatch", "GITHUB_EVENT_NAME", "workflow_dispatch", token, false},
		{"not in Actions", "GITHUB_ACTIONS", "", token, false},
		{"no token", "", "", "", false},
	} {
		env := map[string]string{}
		for k, v := range in {
			env[k] = v
		}
		if c.key != "" {
			env[c.key] = c.value
		}
		if got := FromEnv(func(k string) string { return env[k] }, c.token, "test") != nil; got != c.want {
			t.Errorf("%s: FromEnv != nil is %v, want %v", c.name, got, c.want)
		}
	}
}

// TestApprovalsAPIErrors: a failure of any request is an error that says
// what was being done and names the request, never the token.
func TestApprovalsAPIErrors(t *testing.T) {
	for _, c := range []struct {
		name    string
		path    string // the request that fails
		request string
	}{
		{"finding the pull request", "/pulls", "finding the pull request merged as commit 3e7600000000: GET /repos/acme/deploy/commits/" + merged + "/pulls?per_page=100: 502 Bad Gateway"},
		{"reviews", "/reviews", "reading the reviews of pull request #7: GET /repos/acme/deploy/pulls/7/reviews?per_page=100: 502"},
		{"CODEOWNERS", "/contents/", "reading .github/CODEOWNERS at the base commit ba5e00000000: GET /repos/acme/deploy/contents/.github/CODEOWNERS?ref=" + base + ": 502"},
		{"team membership", "/memberships/", "reading @dora's membership of @acme/dba: GET /orgs/acme/teams/dba/memberships/dora: 502"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			f.review("dora", "APPROVED", head)
			a, ctx := f.approver(t), context.Background()
			f.srv.SetTeam("acme/dba", map[string]string{"dora": "active"})
			f.srv.FailOn(c.path, 502)
			_, err := a.Approvals(ctx, []guard.Verdict{pvc}, owned)
			if err == nil || !strings.Contains(err.Error(), c.request) {
				t.Fatalf("Approvals error = %v, want one with %q", err, c.request)
			}
			if strings.Contains(err.Error(), token) {
				t.Errorf("the token is in the error: %v", err)
			}
		})
	}
}

// TestReviewPages: reviews are read page after page, and a pull request
// with more than the bound has none counted.
func TestReviewPages(t *testing.T) {
	f := newFixture(t)
	for i := range 150 {
		f.srv.AddReview(repo, 7, githubtest.Review{Login: fmt.Sprintf("user%d", i), State: "COMMENTED", CommitID: head})
	}
	f.review("alice", "APPROVED", head)
	a := f.approver(t)
	got, err := a.Approvals(context.Background(), []guard.Verdict{pvc}, owned)
	if err != nil || len(got) != 1 || got[0].By != "@alice" {
		t.Fatalf("with 151 reviews: %+v, %v; notes %q", got, err, a.Notes())
	}

	f = newFixture(t)
	f.review("alice", "APPROVED", head)
	for i := range 500 {
		f.srv.AddReview(repo, 7, githubtest.Review{Login: fmt.Sprintf("user%d", i), State: "COMMENTED", CommitID: head})
	}
	a = f.approver(t)
	got, err = a.Approvals(context.Background(), []guard.Verdict{pvc}, owned)
	if err != nil || len(got) != 0 {
		t.Fatalf("with 501 reviews: %+v, %v", got, err)
	}
	pages := 0
	for _, c := range f.srv.Calls() {
		if strings.Contains(c, "/reviews") {
			pages++
		}
	}
	if pages != maxReviewPages || !strings.Contains(strings.Join(a.Notes(), "\n"), "more than 500 reviews; none is counted") {
		t.Errorf("%d pages read, notes %q", pages, a.Notes())
	}
}

// TestLargeCodeowners: over 1 MB the file is read from its blob; over
// GitHub's 3 MB limit it is not used at all.
func TestLargeCodeowners(t *testing.T) {
	pad := "# " + strings.Repeat("x", 1000) + "\n"
	for _, c := range []struct {
		name  string
		lines int
		want  int
	}{
		{"over 1 MB", 1100, 1},
		{"over 3 MB", 3200, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			f.srv.SetFile(repo, base, ".github/CODEOWNERS", strings.Repeat(pad, c.lines)+"/apps/ @alice\n")
			f.review("alice", "APPROVED", head)
			a := f.approver(t)
			got, err := a.Approvals(context.Background(), []guard.Verdict{pvc}, owned)
			if err != nil || len(got) != c.want {
				t.Fatalf("Approvals = %+v, %v; notes %q", got, err, a.Notes())
			}
		})
	}
}

// TestHostileText: what the API says is escaped in notes and errors.
func TestHostileText(t *testing.T) {
	f := newFixture(t)
	f.srv.AddReview(repo, 7, githubtest.Review{Login: "evil\x1b[31m\n::error::x", State: "APPROVED", CommitID: head})
	a := f.approver(t)
	if _, err := a.Approvals(context.Background(), []guard.Verdict{pvc}, owned); err != nil {
		t.Fatal(err)
	}
	for _, n := range a.Notes() {
		if strings.ContainsAny(n, "\x1b\n") {
			t.Errorf("note not escaped: %q", n)
		}
	}
	if e := (&apiError{doing: "x", err: fmt.Errorf("GET /a: 500 \x1b[2J\r\nboom")}).Error(); strings.ContainsAny(e, "\x1b\r\n") {
		t.Errorf("error not escaped: %q", e)
	}
}

func TestPendingRules(t *testing.T) {
	vs := []guard.Verdict{
		{Rule: "a", Outcome: guard.RequireApproval, Object: "x"},
		{Rule: "d", Outcome: guard.Deny},
		{Rule: "b", Outcome: guard.RequireApproval},
		{Rule: "a", Outcome: guard.RequireApproval, Object: "y"},
		{Rule: "c", Outcome: guard.RequireApproval, Approval: &guard.Approval{Rule: "c"}},
		{Rule: "w", Outcome: guard.Warn},
	}
	got := pendingRules(vs)
	want := []ruleVerdicts{{"a", []guard.Verdict{vs[0], vs[3]}}, {"b", []guard.Verdict{vs[2]}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("pendingRules = %+v", got)
	}
}

// TestOncePerRun: projects of one run ask once, concurrently or not, and
// each call has the notes that concern it.
func TestOncePerRun(t *testing.T) {
	f := newFixture(t)
	f.srv.SetTeam("acme/dba", map[string]string{"dora": "active"})
	f.review("alice", "APPROVED", oldHead)
	f.review("dora", "APPROVED", head)
	a := f.approver(t)
	var wg sync.WaitGroup
	found := make([]Found, 4)
	for i := range found {
		wg.Go(func() {
			vs := []guard.Verdict{pvc}
			if i%2 == 1 {
				vs = []guard.Verdict{webPVC}
			}
			var err error
			if found[i], err = a.Find(context.Background(), vs, owned); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	for i, f := range found {
		if want := 1 - i%2; len(f.Approvals) != want {
			t.Errorf("call %d: %+v, want %d approvals", i, f.Approvals, want)
		}
		if !strings.Contains(strings.Join(f.Notes, "\n"), "@alice approved commit 01d000000000") {
			t.Errorf("call %d: notes %q", i, f.Notes)
		}
	}
	seen := map[string]int{}
	for _, c := range f.srv.Calls() {
		seen[c]++
	}
	for c, n := range seen {
		if n > 1 {
			t.Errorf("%s asked %d times", c, n)
		}
	}
	if len(seen) != 4 { // the pull requests, the reviews, CODEOWNERS, dora's membership
		t.Errorf("requests: %q", f.srv.Calls())
	}
}

// TestEnterpriseServer: the API under a path (GitHub Enterprise Server's
// /api/v3), pages included.
func TestEnterpriseServer(t *testing.T) {
	f := newFixture(t)
	f.srv.Prefix = "/api/v3"
	f.env["GITHUB_API_URL"] = f.srv.APIURL()
	for i := range 120 {
		f.srv.AddReview(repo, 7, githubtest.Review{Login: fmt.Sprintf("user%d", i), State: "COMMENTED", CommitID: head})
	}
	f.review("alice", "APPROVED", head)
	got, err := f.approver(t).Approvals(context.Background(), []guard.Verdict{pvc}, owned)
	if err != nil || len(got) != 1 {
		t.Fatalf("Approvals = %+v, %v", got, err)
	}
	for _, c := range f.srv.Calls() {
		if !strings.HasPrefix(c, "GET /api/v3/") {
			t.Errorf("request outside the API root: %s", c)
		}
	}
}

func TestNilApprover(t *testing.T) {
	var a *Approver
	if got, err := a.Approvals(context.Background(), []guard.Verdict{pvc}, owned); got != nil || err != nil || a.Notes() != nil {
		t.Errorf("nil Approver: %v, %v", got, err)
	}
}

// TestRequests: the exact requests of an apply on merge, CODEOWNERS read
// at the base commit, and of a plan on a pull request.
func TestRequests(t *testing.T) {
	f := newFixture(t)
	f.review("alice", "APPROVED", head)
	if _, err := f.approver(t).Approvals(context.Background(), []guard.Verdict{pvc}, owned); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"GET /repos/acme/deploy/commits/" + merged + "/pulls?per_page=100",
		"GET /repos/acme/deploy/pulls/7/reviews?per_page=100",
		"GET /repos/acme/deploy/contents/.github/CODEOWNERS?ref=" + base,
	}
	if got := f.srv.Calls(); !reflect.DeepEqual(got, want) {
		t.Errorf("push: requests\n%q\nwant\n%q", got, want)
	}

	f = newFixture(t)
	f.srv.ResetFiles()
	f.srv.SetFile(repo, base, "docs/CODEOWNERS", "* @alice\n")
	f.srv.AddPull(githubtest.Pull{Number: 11, Repo: repo, Author: "dev", HeadSHA: head, BaseSHA: base})
	f.srv.AddReview(repo, 11, githubtest.Review{Login: "alice", State: "APPROVED", CommitID: head})
	f.pullRequestEvent(t, 11, head)
	if got, err := f.approver(t).Approvals(context.Background(), []guard.Verdict{pvc}, owned); err != nil || len(got) != 1 {
		t.Fatalf("pull request: %+v, %v", got, err)
	}
	want = []string{
		"GET /repos/acme/deploy/pulls/11",
		"GET /repos/acme/deploy/pulls/11/reviews?per_page=100",
		"GET /repos/acme/deploy/contents/.github/CODEOWNERS?ref=" + base,
		"GET /repos/acme/deploy/contents/CODEOWNERS?ref=" + base,
		"GET /repos/acme/deploy/contents/docs/CODEOWNERS?ref=" + base,
	}
	if got := f.srv.Calls(); !reflect.DeepEqual(got, want) {
		t.Errorf("pull request: requests\n%q\nwant\n%q", got, want)
	}
}
