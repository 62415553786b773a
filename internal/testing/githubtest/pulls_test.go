package githubtest

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

func get(t *testing.T, s *Server, path string, out any) (int, http.Header) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, s.APIURL()+path, nil)
	req.Header.Set("Authorization", "Bearer tok")
	req.Header.Set("User-Agent", "test")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if out != nil && resp.StatusCode == http.StatusOK {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			t.Fatal(err)
		}
	}
	return resp.StatusCode, resp.Header
}

func TestPullsEndpoints(t *testing.T) {
	s := New(t, "o/r", "tok")
	merged := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	s.AddPull(Pull{Number: 3, Repo: "o/r", Author: "dev", State: "closed", MergedAt: merged, MergeCommitSHA: "aaaa", HeadSHA: "bbbb", BaseSHA: "cccc", Labels: []string{"x"}})
	s.AddPull(Pull{Number: 4, Repo: "o/r", Author: "dev", MergeCommitSHA: "aaaa", HeadSHA: "dddd", Commits: []string{"aaaa"}})

	var pulls []struct {
		Number         int     `json:"number"`
		MergedAt       *string `json:"merged_at"`
		MergeCommitSHA *string `json:"merge_commit_sha"`
		Base           struct {
			SHA, Ref string
		} `json:"base"`
	}
	if code, _ := get(t, s, "/repos/o/r/commits/aaaa/pulls", &pulls); code != 200 || len(pulls) != 2 || pulls[0].Number != 3 ||
		pulls[0].MergedAt == nil || *pulls[0].MergeCommitSHA != "aaaa" || pulls[0].Base.Ref != "main" || pulls[1].MergedAt != nil {
		t.Errorf("commits/aaaa/pulls: %d %+v", code, pulls)
	}
	if code, _ := get(t, s, "/repos/o/r/commits/eeee/pulls", &pulls); code != 200 || len(pulls) != 0 {
		t.Errorf("commits/eeee/pulls: %d %+v", code, pulls)
	}
	if code, _ := get(t, s, "/repos/o/r/pulls/5", nil); code != 404 {
		t.Errorf("pulls/5: %d", code)
	}

	for i := range 35 {
		s.AddReview("o/r", 3, Review{Login: "u", State: "COMMENTED", CommitID: "bbbb", SubmittedAt: merged.Add(time.Duration(i) * time.Minute)})
	}
	var reviews []map[string]any
	code, h := get(t, s, "/repos/o/r/pulls/3/reviews", &reviews)
	if code != 200 || len(reviews) != 30 || !strings.Contains(h.Get("Link"), `page=2>; rel="next"`) {
		t.Errorf("reviews page 1: %d, %d reviews, Link %q", code, len(reviews), h.Get("Link"))
	}
	code, h = get(t, s, "/repos/o/r/pulls/3/reviews?page=2", &reviews)
	if code != 200 || len(reviews) != 5 || h.Get("Link") != "" || reviews[4]["commit_id"] != "bbbb" {
		t.Errorf("reviews page 2: %d, %d reviews, Link %q", code, len(reviews), h.Get("Link"))
	}

	s.SetFile("o/r", "cccc", ".github/CODEOWNERS", "* @a\n")
	var c struct{ Encoding, Content string }
	if code, _ := get(t, s, "/repos/o/r/contents/.github/CODEOWNERS?ref=cccc", &c); code != 200 || c.Encoding != "base64" {
		t.Errorf("contents: %d %+v", code, c)
	} else if data, _ := base64.StdEncoding.DecodeString(c.Content); string(data) != "* @a\n" {
		t.Errorf("contents: %q", data)
	}
	if code, _ := get(t, s, "/repos/o/r/contents/.github/CODEOWNERS?ref=bbbb", nil); code != 404 {
		t.Errorf("contents at another ref: %d", code)
	}

	s.SetTeam("org/team", map[string]string{"Ann": "active"})
	var m struct{ State string }
	if code, _ := get(t, s, "/orgs/org/teams/team/memberships/ann", &m); code != 200 || m.State != "active" {
		t.Errorf("membership: %d %+v", code, m)
	}
	if code, _ := get(t, s, "/orgs/org/teams/team/memberships/bob", nil); code != 404 {
		t.Errorf("not a member: %d", code)
	}
	s.TeamsForbidden = true
	if code, _ := get(t, s, "/orgs/org/teams/team/memberships/ann", nil); code != 403 {
		t.Errorf("forbidden: %d", code)
	}
	s.FailOn("/pulls/3", 503)
	if code, _ := get(t, s, "/repos/o/r/pulls/3", nil); code != 503 {
		t.Errorf("FailOn: %d", code)
	}
}
