package ghcomment

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/testing/githubtest"
)

const (
	repo  = "acme/shop"
	token = "ghs_testTokenValue1234567890"
)

func client(s *githubtest.Server) *Client {
	return &Client{BaseURL: s.APIURL(), Token: token, UserAgent: "kubeplan-test"}
}

func TestUpsertCreatesThenEdits(t *testing.T) {
	s := githubtest.New(t, repo, token)
	human := s.AddComment(repo, 7, "alice", "LGTM")
	m := Marker("prod", "store", "configmap/gitops-applyset")
	other := s.AddComment(repo, 7, "github-actions[bot]", Marker("prod", "store", "configmap/other")+"\nother plan")
	elsewhere := s.AddComment(repo, 8, "github-actions[bot]", m+"\nplan of another PR")
	ctx := context.Background()
	c := client(s)

	r1, err := c.Upsert(ctx, Target{repo, 7}, m, m+"\nfirst")
	if err != nil {
		t.Fatal(err)
	}
	if !r1.Created || r1.ID == 0 || !strings.Contains(r1.URL, "/pull/7#issuecomment-") {
		t.Errorf("first upsert: %+v", r1)
	}
	r2, err := c.Upsert(ctx, Target{repo, 7}, m, m+"\nsecond")
	if err != nil {
		t.Fatal(err)
	}
	if r2.Created || r2.ID != r1.ID {
		t.Errorf("second upsert: %+v, want an edit of %d", r2, r1.ID)
	}
	want := []string{
		"GET /repos/acme/shop/issues/7/comments?per_page=100",
		"POST /repos/acme/shop/issues/7/comments",
		"GET /repos/acme/shop/issues/7/comments?per_page=100",
		"GET /user", // the marked comment's author must be the token's
		fmt.Sprintf("PATCH /repos/acme/shop/issues/comments/%d", r1.ID),
	}
	if got := s.Calls(); !slices.Equal(got, want) {
		t.Errorf("requests:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, r := range s.Requests() {
		h := r.Header
		if h.Get("Authorization") != "Bearer "+token || h.Get("Accept") != "application/vnd.github+json" ||
			h.Get("X-GitHub-Api-Version") != "2022-11-28" || h.Get("User-Agent") != "kubeplan-test" {
			t.Errorf("%s %s: headers %v", r.Method, r.Path, h)
		}
		if r.Method != http.MethodGet && h.Get("Content-Type") != "application/json" {
			t.Errorf("%s %s: Content-Type %q", r.Method, r.Path, h.Get("Content-Type"))
		}
	}
	cs := s.Comments(repo, 7)
	bodies := map[int64]string{}
	for _, c := range cs {
		bodies[c.ID] = c.Body
	}
	if len(cs) != 3 || bodies[human] != "LGTM" || !strings.HasSuffix(bodies[other], "other plan") || bodies[r1.ID] != m+"\nsecond" {
		t.Errorf("comments after two runs: %+v", cs)
	}
	if pr8 := s.Comments(repo, 8); len(pr8) != 1 || pr8[0].ID != elsewhere || !strings.HasSuffix(pr8[0].Body, "another PR") {
		t.Errorf("comment on another pull request changed: %+v", pr8)
	}
}

func TestUpsertFollowsPagination(t *testing.T) {
	s := githubtest.New(t, repo, token)
	m := Marker("prod", "store", "-")
	// Ours is on page 2 of 3; a later duplicate on page 3 stays as it is.
	for range 150 {
		s.AddComment(repo, 3, "bob", "a comment")
	}
	ours := s.AddComment(repo, 3, "github-actions[bot]", m+"\nold")
	for range 80 {
		s.AddComment(repo, 3, "bob", "a comment")
	}
	dup := s.AddComment(repo, 3, "github-actions[bot]", m+"\nduplicate")

	r, err := client(s).Upsert(context.Background(), Target{repo, 3}, m, m+"\nnew")
	if err != nil {
		t.Fatal(err)
	}
	if r.ID != ours || r.Created {
		t.Errorf("upsert %+v, want an edit of %d", r, ours)
	}
	want := []string{
		"GET /repos/acme/shop/issues/3/comments?per_page=100",
		"GET /repos/acme/shop/issues/3/comments?per_page=100&page=2",
		"GET /user",
		fmt.Sprintf("PATCH /repos/acme/shop/issues/comments/%d", ours),
	}
	if got := s.Calls(); !slices.Equal(got, want) {
		t.Errorf("requests:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, c := range s.Comments(repo, 3) {
		if c.ID == dup && !strings.HasSuffix(c.Body, "duplicate") {
			t.Errorf("the later duplicate was edited: %q", c.Body)
		}
	}
}

func TestUpsertEnterprisePrefix(t *testing.T) {
	s := githubtest.New(t, repo, token)
	s.Prefix = "/api/v3"
	m := Marker("prod", "a", "b")
	if _, err := client(s).Upsert(context.Background(), Target{repo, 1}, m, m+"\nx"); err != nil {
		t.Fatal(err)
	}
	want := []string{"GET /api/v3/repos/acme/shop/issues/1/comments?per_page=100", "POST /api/v3/repos/acme/shop/issues/1/comments"}
	if got := s.Calls(); !slices.Equal(got, want) {
		t.Errorf("requests %q, want %q", got, want)
	}
}

func TestUpsertErrors(t *testing.T) {
	m := Marker("prod", "store", "-")
	ctx := context.Background()
	t.Run("read-only token", func(t *testing.T) {
		s := githubtest.New(t, repo, token)
		s.ReadOnly = true
		_, err := client(s).Upsert(ctx, Target{repo, 12}, m, m+"\nx")
		want := "cannot comment on pull request #12: 403 Resource not accessible by integration; give the workflow 'pull-requests: write'"
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("err = %v, want prefix %q", err, want)
		}
		if len(s.Comments(repo, 12)) != 0 {
			t.Error("a comment was written")
		}
	})
	t.Run("bad token", func(t *testing.T) {
		s := githubtest.New(t, repo, "the-right-one")
		_, err := client(s).Upsert(ctx, Target{repo, 12}, m, m+"\nx")
		if err == nil || !strings.Contains(err.Error(), "401 Bad credentials; the token was refused") {
			t.Errorf("err = %v", err)
		}
		if strings.Contains(err.Error(), token) {
			t.Error("the error holds the token")
		}
	})
	t.Run("unknown repository", func(t *testing.T) {
		s := githubtest.New(t, "acme/other", token)
		_, err := client(s).Upsert(ctx, Target{repo, 12}, m, m+"\nx")
		if err == nil || !strings.Contains(err.Error(), "404 Not Found; check $GITHUB_REPOSITORY") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("bad input", func(t *testing.T) {
		s := githubtest.New(t, repo, token)
		c := client(s)
		for _, tc := range []struct {
			target Target
			body   string
			want   string
		}{
			{Target{"acme", 1}, m, `repository "acme" is not OWNER/REPO`},
			{Target{repo, 0}, m, "no pull request number"},
			{Target{repo, 1}, "no marker", "does not start with its marker"},
		} {
			if _, err := c.Upsert(ctx, tc.target, m, tc.body); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%+v: err = %v, want %q", tc.target, err, tc.want)
			}
		}
		if len(s.Requests()) != 0 {
			t.Errorf("bad input made requests: %q", s.Calls())
		}
	})
	t.Run("too long", func(t *testing.T) {
		s := githubtest.New(t, repo, token)
		_, err := client(s).Upsert(ctx, Target{repo, 1}, m, m+"\n"+strings.Repeat("x", MaxChars))
		if err == nil || !strings.Contains(err.Error(), "422 Validation Failed") {
			t.Errorf("err = %v", err)
		}
	})
}

// A Link header pointing to another host never receives the token.
func TestTokenStaysOnTheAPIHost(t *testing.T) {
	var leaked []string
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		leaked = append(leaked, r.Header.Get("Authorization"))
		fmt.Fprint(w, "[]")
	}))
	defer evil.Close()
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Link", fmt.Sprintf(`<%s/page2>; rel="next"`, evil.URL))
		fmt.Fprint(w, "[]")
	}))
	defer api.Close()
	c := &Client{BaseURL: api.URL, Token: token, UserAgent: "t"}
	m := Marker("prod", "a", "b")
	_, err := c.Upsert(context.Background(), Target{repo, 1}, m, m)
	if err == nil || !strings.Contains(err.Error(), "refusing to send the token") || strings.Contains(err.Error(), token) {
		t.Errorf("err = %v", err)
	}
	if len(leaked) != 0 {
		t.Errorf("the other host got %q", leaked)
	}
}

func TestNextLink(t *testing.T) {
	h := http.Header{}
	h.Add("Link", `<https://api.github.com/x?page=1>; rel="prev", <https://api.github.com/x?page=3>; rel="next", <https://api.github.com/x?page=9>; rel="last"`)
	if got := nextLink(h); got != "https://api.github.com/x?page=3" {
		t.Errorf("nextLink = %q", got)
	}
	if got := nextLink(http.Header{"Link": {`<https://a/x?page=9>; rel="last"`}}); got != "" {
		t.Errorf("last page: nextLink = %q", got)
	}
}

// A comment by someone else that carries kubeplan's marker is neither
// edited nor taken for the plan: kubeplan writes its own, and edits that
// one on the next run. With the GITHUB_TOKEN, /user is refused and the
// author is github-actions[bot].
func TestUpsertIgnoresMarkerByOthers(t *testing.T) {
	s := githubtest.New(t, repo, token)
	m := Marker("prod", "store", "configmap/gitops-applyset")
	fake := m + "\n### Plan: no changes\n(a fake plan)"
	impostor := s.AddComment(repo, 7, "mallory", fake)
	human := s.AddComment(repo, 7, "github-actions", fake) // a user named like the bot, without [bot]
	ctx := context.Background()
	c := client(s)

	r1, err := c.Upsert(ctx, Target{repo, 7}, m, m+"\nreal plan 1")
	if err != nil {
		t.Fatal(err)
	}
	if !r1.Created || r1.ID == impostor || r1.ID == human || r1.Ignored != 2 {
		t.Errorf("first upsert %+v, want a new comment and 2 ignored", r1)
	}
	r2, err := c.Upsert(ctx, Target{repo, 7}, m, m+"\nreal plan 2")
	if err != nil {
		t.Fatal(err)
	}
	if r2.Created || r2.ID != r1.ID || r2.Ignored != 2 {
		t.Errorf("second upsert %+v, want an edit of %d", r2, r1.ID)
	}
	for _, cm := range s.Comments(repo, 7) {
		switch cm.ID {
		case impostor, human:
			if cm.Body != fake || !cm.UpdatedAt.Equal(cm.CreatedAt) {
				t.Errorf("comment %d by %s was edited: %q", cm.ID, cm.Login, cm.Body)
			}
		case r1.ID:
			if cm.Body != m+"\nreal plan 2" || cm.Login != ActionsBot {
				t.Errorf("kubeplan's comment: %+v", cm)
			}
		default:
			t.Errorf("unexpected comment %+v", cm)
		}
	}
	for _, call := range s.Calls() {
		if strings.HasPrefix(call, "PATCH") && call != fmt.Sprintf("PATCH /repos/acme/shop/issues/comments/%d", r1.ID) {
			t.Errorf("edited another comment: %s", call)
		}
	}
}

// With a personal access token the author is GET /user's login; a comment
// with the marker by the Actions bot is then someone else's.
func TestUpsertPersonalToken(t *testing.T) {
	s := githubtest.New(t, repo, token)
	s.PersonalToken, s.Login, s.UserType = true, "kubeplan-ci", "User"
	m := Marker("prod", "store", "-")
	bot := s.AddComment(repo, 7, ActionsBot, m+"\nby the bot")
	mine := s.AddComment(repo, 7, "Kubeplan-CI", m+"\nold") // logins compare case aside
	r, err := client(s).Upsert(context.Background(), Target{repo, 7}, m, m+"\nnew")
	if err != nil {
		t.Fatal(err)
	}
	if r.Created || r.ID != mine || r.Ignored != 1 {
		t.Errorf("upsert %+v, want an edit of %d with 1 ignored", r, mine)
	}
	if cs := s.Comments(repo, 7); cs[0].ID != bot || cs[0].Body != m+"\nby the bot" {
		t.Errorf("the bot's comment changed: %+v", cs[0])
	}
}

// Login set by the caller (another GitHub App's token) is used as it is;
// an answer of /user other than the installation refusal is an error, and
// nothing is written.
func TestUpsertAuthorUnknown(t *testing.T) {
	s := githubtest.New(t, repo, token)
	m := Marker("prod", "store", "-")
	s.AddComment(repo, 7, "my-app[bot]", m+"\nold")
	c := client(s)
	c.Login = "my-app[bot]"
	if r, err := c.Upsert(context.Background(), Target{repo, 7}, m, m+"\nnew"); err != nil || r.Created || r.Ignored != 0 {
		t.Errorf("with Login: %+v, %v", r, err)
	}
	if slices.Contains(s.Calls(), "GET /user") {
		t.Error("asked /user although Login was given")
	}

	s2 := githubtest.New(t, repo, token)
	s2.PersonalToken, s2.Login = true, "" // /user answers without a login
	s2.AddComment(repo, 7, "someone", m+"\nx")
	_, err := client(s2).Upsert(context.Background(), Target{repo, 7}, m, m+"\nnew")
	if err == nil || !strings.Contains(err.Error(), "/user") {
		t.Errorf("err = %v, want one about /user", err)
	}
	for _, call := range s2.Calls() {
		if !strings.HasPrefix(call, "GET ") {
			t.Errorf("wrote without knowing the author: %s", call)
		}
	}
}
