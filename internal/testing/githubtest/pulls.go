package githubtest

import (
	"crypto/sha1"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Pull is a stored pull request.
type Pull struct {
	Number int
	Repo   string
	Author string // login of who opened it
	State  string // open or closed ("" is open)
	// MergedAt is when it was merged; zero while it is not.
	MergedAt time.Time
	// MergeCommitSHA is the commit a merge, squash or rebase merge made
	// (GitHub also sets a test merge commit on an open pull request).
	MergeCommitSHA string
	HeadSHA        string
	BaseSHA        string
	BaseRef        string // "main" when empty
	Labels         []string
	// Commits are the pull request's commits besides its head, which
	// GET commits/{sha}/pulls also finds it by.
	Commits []string
}

// Review is a stored pull request review.
type Review struct {
	ID          int64
	Login       string
	State       string // APPROVED, CHANGES_REQUESTED, COMMENTED, DISMISSED
	CommitID    string
	SubmittedAt time.Time
}

// AddPull stores a pull request.
func (s *Server) AddPull(p Pull) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p.State == "" {
		p.State = "open"
	}
	if p.BaseRef == "" {
		p.BaseRef = "main"
	}
	s.pulls = append(s.pulls, &p)
}

// AddReview stores a review of pull request number of repo, given after
// every review stored before it, and returns its id.
func (s *Server) AddReview(repo string, number int, r Review) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	r.ID = s.nextID
	if r.SubmittedAt.IsZero() {
		r.SubmittedAt = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC).Add(time.Duration(r.ID) * time.Second)
	}
	if s.reviews == nil {
		s.reviews = map[string][]Review{}
	}
	k := fmt.Sprintf("%s#%d", repo, number)
	s.reviews[k] = append(s.reviews[k], r)
	return r.ID
}

// SetFile stores a file of repo at commit ref, for GET contents/{path}?ref=.
func (s *Server) SetFile(repo, ref, path, content string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.files == nil {
		s.files = map[string]string{}
	}
	s.files[repo+"@"+ref+":"+path] = content
}

// ResetFiles forgets every file SetFile stored.
func (s *Server) ResetFiles() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.files = nil
}

// SetTeam makes members (login -> "active" or "pending") the members of
// team ("org/slug").
func (s *Server) SetTeam(team string, members map[string]string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.teams == nil {
		s.teams = map[string]map[string]string{}
	}
	s.teams[strings.ToLower(team)] = members
}

var (
	commitPullsPath = regexp.MustCompile(`^/repos/([^/]+)/([^/]+)/commits/([0-9a-fA-F]{4,64})/pulls$`)
	pullPath        = regexp.MustCompile(`^/repos/([^/]+)/([^/]+)/pulls/([0-9]+)$`)
	reviewsPath     = regexp.MustCompile(`^/repos/([^/]+)/([^/]+)/pulls/([0-9]+)/reviews$`)
	contentsPath    = regexp.MustCompile(`^/repos/([^/]+)/([^/]+)/contents/(.+)$`)
	blobPath        = regexp.MustCompile(`^/repos/([^/]+)/([^/]+)/git/blobs/([0-9a-f]{40})$`)
	membershipPath  = regexp.MustCompile(`^/orgs/([^/]+)/teams/([^/]+)/memberships/([^/]+)$`)
)

// contentsLimit is the size over which the contents API leaves a file's
// content out (encoding "none"); the blobs API still has it.
const contentsLimit = 1 << 20

// servePulls answers the pull request, review, contents, blob and team
// membership endpoints; false: not one of them.
func (s *Server) servePulls(w http.ResponseWriter, r *http.Request, path string) bool {
	if r.Method != http.MethodGet {
		return false
	}
	if m := membershipPath.FindStringSubmatch(path); m != nil {
		s.membership(w, m[1]+"/"+m[2], m[3])
		return true
	}
	var m []string
	for _, re := range []*regexp.Regexp{commitPullsPath, pullPath, reviewsPath, contentsPath, blobPath} {
		if m = re.FindStringSubmatch(path); m != nil {
			break
		}
	}
	if m == nil {
		return false
	}
	repo := m[1] + "/" + m[2]
	if !s.Repos[repo] {
		notFound(w)
		return true
	}
	switch {
	case commitPullsPath.MatchString(path):
		var out []map[string]any
		for _, p := range s.pulls {
			if p.Repo == repo && (p.HeadSHA == m[3] || p.MergeCommitSHA == m[3] && !p.MergedAt.IsZero() || slices.Contains(p.Commits, m[3])) {
				out = append(out, s.pullJSON(p))
			}
		}
		s.page(w, r, out)
	case pullPath.MatchString(path):
		for _, p := range s.pulls {
			if p.Repo == repo && p.Number == atoi(m[3]) {
				writeJSON(w, http.StatusOK, s.pullJSON(p))
				return true
			}
		}
		notFound(w)
	case reviewsPath.MatchString(path):
		if !slices.ContainsFunc(s.pulls, func(p *Pull) bool { return p.Repo == repo && p.Number == atoi(m[3]) }) {
			notFound(w)
			return true
		}
		var out []map[string]any
		for _, rv := range s.reviews[repo+"#"+m[3]] {
			out = append(out, map[string]any{"id": rv.ID, "user": map[string]any{"login": rv.Login, "type": "User"},
				"body": "", "state": rv.State, "commit_id": rv.CommitID, "submitted_at": rv.SubmittedAt.Format(time.RFC3339),
				"author_association": "MEMBER"})
		}
		s.page(w, r, out)
	case contentsPath.MatchString(path):
		s.contents(w, r, repo, m[3])
	default:
		s.blob(w, repo, m[3])
	}
	return true
}

func (s *Server) pullJSON(p *Pull) map[string]any {
	labels := make([]map[string]any, 0, len(p.Labels))
	for _, l := range p.Labels {
		labels = append(labels, map[string]any{"name": l})
	}
	out := map[string]any{
		"number": p.Number, "state": p.State, "user": map[string]any{"login": p.Author},
		"head":   map[string]any{"sha": p.HeadSHA, "ref": fmt.Sprintf("pr-%d", p.Number)},
		"base":   map[string]any{"sha": p.BaseSHA, "ref": p.BaseRef},
		"labels": labels, "merged_at": nil, "merge_commit_sha": nil,
		"html_url": fmt.Sprintf("https://github.com/%s/pull/%d", p.Repo, p.Number),
	}
	if p.MergeCommitSHA != "" {
		out["merge_commit_sha"] = p.MergeCommitSHA
	}
	if !p.MergedAt.IsZero() {
		out["merged_at"] = p.MergedAt.Format(time.RFC3339)
	}
	return out
}

// page answers one page of all, as per_page and page ask (30 a page by
// default, at most 100), with a Link rel="next" while more follow.
func (s *Server) page(w http.ResponseWriter, r *http.Request, all []map[string]any) {
	q := r.URL.Query()
	perPage, page := 30, 1
	if v := q.Get("per_page"); v != "" {
		perPage = min(max(atoi(v), 1), 100)
	}
	if v := q.Get("page"); v != "" {
		page = max(atoi(v), 1)
	}
	last := max(1, (len(all)+perPage-1)/perPage)
	from, to := min((page-1)*perPage, len(all)), min(page*perPage, len(all))
	if page < last {
		q.Set("page", fmt.Sprint(page+1))
		w.Header().Set("Link", fmt.Sprintf(`<%s%s?%s>; rel="next"`, s.URL, r.URL.Path, q.Encode()))
	}
	writeJSON(w, http.StatusOK, append([]map[string]any{}, all[from:to]...))
}

func (s *Server) contents(w http.ResponseWriter, r *http.Request, repo, escaped string) {
	path, err := url.PathUnescape(escaped)
	if err != nil {
		notFound(w)
		return
	}
	ref := r.URL.Query().Get("ref")
	if ref == "" {
		ref = "main"
	}
	data, ok := s.files[repo+"@"+ref+":"+path]
	if !ok {
		notFound(w)
		return
	}
	sum := sha1.Sum([]byte(data))
	sha := hex.EncodeToString(sum[:])
	s.blobs()[sha] = data
	out := map[string]any{"type": "file", "name": path[strings.LastIndex(path, "/")+1:], "path": path, "sha": sha, "size": len(data),
		"encoding": "base64", "content": wrapLines(base64.StdEncoding.EncodeToString([]byte(data)))}
	if len(data) > contentsLimit {
		out["encoding"], out["content"] = "none", ""
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) blobs() map[string]string {
	if s.blobStore == nil {
		s.blobStore = map[string]string{}
	}
	return s.blobStore
}

func (s *Server) blob(w http.ResponseWriter, repo, sha string) {
	data, ok := s.blobs()[sha]
	if !ok {
		notFound(w)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"sha": sha, "size": len(data), "encoding": "base64",
		"content": wrapLines(base64.StdEncoding.EncodeToString([]byte(data)))})
}

// wrapLines breaks base64 into lines of 60 characters, as GitHub sends it.
func wrapLines(s string) string {
	var b strings.Builder
	for len(s) > 60 {
		b.WriteString(s[:60] + "\n")
		s = s[60:]
	}
	b.WriteString(s)
	return b.String()
}

func (s *Server) membership(w http.ResponseWriter, team, login string) {
	if s.TeamsForbidden {
		writeJSON(w, http.StatusForbidden, map[string]string{"message": "Resource not accessible by integration", "documentation_url": "https://docs.github.com/rest/teams/members#get-team-membership-for-a-user", "status": "403"})
		return
	}
	members, ok := s.teams[strings.ToLower(team)]
	state := ""
	for l, st := range members {
		if strings.EqualFold(l, login) {
			state = st
		}
	}
	if !ok || state == "" {
		notFound(w)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"state": state, "role": "member",
		"url": fmt.Sprintf("%s%s/orgs/%s/memberships/%s", s.URL, s.Prefix, team, login)})
}
