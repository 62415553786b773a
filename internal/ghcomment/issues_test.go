package ghcomment

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/testing/githubtest"
)

// FindOpenIssue follows the pagination to the oldest matching open issue,
// skipping pull requests; CreateIssue and CloseIssue do what they say.
func TestIssues(t *testing.T) {
	s := githubtest.New(t, repo, token)
	s.AddIssue(repo, "bot", "drift", []string{"drift"}, true) // a pull request with the title
	for i := range 150 {
		s.AddIssue(repo, "bot", fmt.Sprintf("other %d", i), []string{"drift"}, false)
	}
	c := client(s)
	ctx := context.Background()
	got, err := c.FindOpenIssue(ctx, repo, "drift", "drift")
	if err != nil || got != nil {
		t.Fatalf("FindOpenIssue with no match: %+v, %v", got, err)
	}
	if n := strings.Count(strings.Join(s.Calls(), "\n"), "GET "); n != 2 {
		t.Errorf("%d list requests for 151 issues, want 2 pages:\n%s", n, strings.Join(s.Calls(), "\n"))
	}
	created, err := c.CreateIssue(ctx, repo, "drift", "body", []string{"drift"})
	if err != nil || created.Number != 152 || created.State != "open" {
		t.Fatalf("CreateIssue: %+v, %v", created, err)
	}
	s.AddIssue(repo, "bot", "drift", []string{"drift"}, false) // a newer duplicate
	got, err = c.FindOpenIssue(ctx, repo, "drift", "drift")
	if err != nil || got == nil || got.Number != 152 {
		t.Fatalf("FindOpenIssue: %+v, %v; want #152, the oldest", got, err)
	}
	if err := c.CloseIssue(ctx, repo, 152, "fixed"); err != nil {
		t.Fatal(err)
	}
	for _, is := range s.Issues(repo) {
		if is.Number == 152 && (is.State != "closed" || is.StateReason != "completed") {
			t.Errorf("issue #152 after CloseIssue: %+v", is)
		}
	}
	if cs := s.Comments(repo, 152); len(cs) != 1 || cs[0].Body != "fixed" {
		t.Errorf("comments on #152: %+v", cs)
	}
	if err := c.CloseIssue(ctx, repo, 999, ""); err == nil || !strings.Contains(err.Error(), "404") {
		t.Errorf("closing a missing issue: %v", err)
	}
}

// SetStatus cuts a long description to GitHub's 140 characters.
func TestSetStatus(t *testing.T) {
	s := githubtest.New(t, repo, token)
	c := client(s)
	sha := "0123456789abcdef0123456789abcdef01234567"
	long := strings.Repeat("é", 200)
	if err := c.SetStatus(context.Background(), repo, sha, Status{State: "failure", Context: "kubeplan/store", Description: long}); err != nil {
		t.Fatal(err)
	}
	got := s.Statuses(repo, sha)
	if len(got) != 1 || len([]rune(got[0].Description)) != 140 || !strings.HasSuffix(got[0].Description, "…") {
		t.Fatalf("statuses: %+v", got)
	}
	err := c.SetStatus(context.Background(), repo, sha, Status{State: "weird", Context: "kubeplan/store"})
	if err == nil || !strings.Contains(err.Error(), "422 Validation Failed") {
		t.Errorf("a bad state: %v", err)
	}
	if strings.Contains(fmt.Sprint(err), token) {
		t.Errorf("token in error %v", err)
	}
}
