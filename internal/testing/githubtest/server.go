package githubtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

// Comment is a stored issue comment.
type Comment struct {
	ID        int64
	Repo      string // "owner/repo"
	Issue     int
	Body      string
	Login     string // author
	UserType  string // "User" or "Bot"
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Request is one request the server received.
type Request struct {
	Method string
	Path   string // path and query, e.g. "/repos/o/r/issues/7/comments?per_page=100"
	Header http.Header
	Body   string
}

// Server is the fake API. Set its fields before the client runs.
type Server struct {
	*httptest.Server
	// Token is the only token accepted, as "Bearer TOKEN" or "token TOKEN".
	Token string
	// Login and UserType are the author of comments the token creates.
	Login, UserType string
	// PersonalToken makes GET /user answer Login, as it does for a
	// personal access token; otherwise it answers 403 "Resource not
	// accessible by integration", as it does for the GITHUB_TOKEN.
	PersonalToken bool
	// Repos are the repositories that exist ("owner/repo").
	Repos map[string]bool
	// ReadOnly makes writes fail as they do with a read-only
	// GITHUB_TOKEN: 403 "Resource not accessible by integration".
	ReadOnly bool
	// TeamsForbidden makes team membership reads fail with 403, as they do
	// for a GITHUB_TOKEN, which may not read an organization's teams.
	TeamsForbidden bool
	// Prefix is the API root path: "" like api.github.com, "/api/v3" like
	// GitHub Enterprise Server.
	Prefix string

	mu       sync.Mutex
	comments []*Comment
	nextID   int64
	log      []Request
	statuses []Status
	issues   []*Issue
	failures []int          // statuses to answer the next requests with (FailNext)
	failOn   map[string]int // path part -> status to answer with (FailOn)

	pulls     []*Pull
	reviews   map[string][]Review // "owner/repo#number"
	files     map[string]string   // "owner/repo@ref:path"
	blobStore map[string]string   // sha -> content, of files served
	teams     map[string]map[string]string
}

// New starts a server for repo that accepts token; it is closed when the
// test ends.
func New(t testing.TB, repo, token string) *Server {
	s := &Server{Token: token, Login: "github-actions[bot]", UserType: "Bot", Repos: map[string]bool{repo: true}, nextID: 1000}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// APIURL is what $GITHUB_API_URL would be.
func (s *Server) APIURL() string { return s.URL + s.Prefix }

// AddComment stores a comment as if login had written it, and returns its id.
func (s *Server) AddComment(repo string, issue int, login, body string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.add(repo, issue, login, "User", body).ID
}

func (s *Server) add(repo string, issue int, login, typ, body string) *Comment {
	s.nextID++
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC).Add(time.Duration(s.nextID) * time.Second)
	c := &Comment{ID: s.nextID, Repo: repo, Issue: issue, Body: body, Login: login, UserType: typ, CreatedAt: now, UpdatedAt: now}
	s.comments = append(s.comments, c)
	return c
}

// Comments returns copies of the stored comments of one issue, oldest first.
func (s *Server) Comments(repo string, issue int) []Comment {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Comment
	for _, c := range s.comments {
		if c.Repo == repo && c.Issue == issue {
			out = append(out, *c)
		}
	}
	return out
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.log...)
}

// Calls returns the requests as "METHOD path?query" lines.
func (s *Server) Calls() []string {
	var out []string
	for _, r := range s.Requests() {
		out = append(out, r.Method+" "+r.Path)
	}
	return out
}

// ResetLog forgets the requests received so far.
func (s *Server) ResetLog() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log = nil
}

var (
	listOrCreate = regexp.MustCompile(`^/repos/([^/]+)/([^/]+)/issues/([0-9]+)/comments$`)
	editComment  = regexp.MustCompile(`^/repos/([^/]+)/([^/]+)/issues/comments/([0-9]+)$`)
)

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log = append(s.log, Request{Method: r.Method, Path: r.URL.RequestURI(), Header: r.Header.Clone(), Body: string(body)})

	if r.Header.Get("User-Agent") == "" {
		writeJSON(w, http.StatusForbidden, map[string]string{"message": "Request forbidden by administrative rules. Please make sure your request has a User-Agent header (https://docs.github.com/en/rest/overview/resources-in-the-rest-api#user-agent-required)."})
		return
	}
	if auth := r.Header.Get("Authorization"); auth != "Bearer "+s.Token && auth != "token "+s.Token {
		writeJSON(w, http.StatusUnauthorized, map[string]string{"message": "Bad credentials", "documentation_url": "https://docs.github.com/rest", "status": "401"})
		return
	}
	if len(s.failures) > 0 {
		status := s.failures[0]
		s.failures = s.failures[1:]
		writeJSON(w, status, map[string]string{"message": http.StatusText(status)})
		return
	}
	for part, status := range s.failOn {
		if strings.Contains(r.URL.Path, part) {
			writeJSON(w, status, map[string]string{"message": http.StatusText(status)})
			return
		}
	}
	path, ok := strings.CutPrefix(r.URL.Path, s.Prefix)
	if !ok {
		notFound(w)
		return
	}
	if path == "/user" && r.Method == http.MethodGet {
		s.user(w)
		return
	}
	if s.servePulls(w, r, path) {
		return
	}
	if s.serveMore(w, r, path, body) {
		return
	}
	if m := listOrCreate.FindStringSubmatch(path); m != nil {
		repo, issue := m[1]+"/"+m[2], atoi(m[3])
		if !s.Repos[repo] {
			notFound(w)
			return
		}
		switch r.Method {
		case http.MethodGet:
			s.list(w, r, repo, issue)
		case http.MethodPost:
			s.create(w, repo, issue, body)
		default:
			notFound(w)
		}
		return
	}
	if m := editComment.FindStringSubmatch(path); m != nil && r.Method == http.MethodPatch {
		repo, id := m[1]+"/"+m[2], int64(atoi(m[3]))
		if !s.Repos[repo] {
			notFound(w)
			return
		}
		s.edit(w, repo, id, body)
		return
	}
	notFound(w)
}

// user answers GET /user: the token's account, or the refusal an
// installation token gets.
func (s *Server) user(w http.ResponseWriter) {
	if !s.PersonalToken {
		writeJSON(w, http.StatusForbidden, map[string]string{"message": "Resource not accessible by integration", "documentation_url": "https://docs.github.com/rest/users/users#get-the-authenticated-user", "status": "403"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"login": s.Login, "id": len(s.Login), "type": s.UserType})
}

func (s *Server) list(w http.ResponseWriter, r *http.Request, repo string, issue int) {
	perPage, page := 30, 1
	if v := r.URL.Query().Get("per_page"); v != "" {
		perPage = min(max(atoi(v), 1), 100)
	}
	if v := r.URL.Query().Get("page"); v != "" {
		page = max(atoi(v), 1)
	}
	var all []*Comment
	for _, c := range s.comments {
		if c.Repo == repo && c.Issue == issue {
			all = append(all, c)
		}
	}
	last := max(1, (len(all)+perPage-1)/perPage)
	from, to := min((page-1)*perPage, len(all)), min(page*perPage, len(all))
	out := make([]map[string]any, 0, to-from)
	for _, c := range all[from:to] {
		out = append(out, s.json(c))
	}
	if last > 1 {
		link := func(p int, rel string) string {
			return fmt.Sprintf(`<%s%s?per_page=%d&page=%d>; rel="%s"`, s.URL, r.URL.Path, perPage, p, rel)
		}
		var links []string
		if page > 1 {
			links = append(links, link(page-1, "prev"), link(1, "first"))
		}
		if page < last {
			links = append(links, link(page+1, "next"), link(last, "last"))
		}
		w.Header().Set("Link", strings.Join(links, ", "))
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) create(w http.ResponseWriter, repo string, issue int, body []byte) {
	text, ok := s.checkWrite(w, body)
	if !ok {
		return
	}
	writeJSON(w, http.StatusCreated, s.json(s.add(repo, issue, s.Login, s.UserType, text)))
}

func (s *Server) edit(w http.ResponseWriter, repo string, id int64, body []byte) {
	for _, c := range s.comments {
		if c.ID != id || c.Repo != repo {
			continue
		}
		text, ok := s.checkWrite(w, body)
		if !ok {
			return
		}
		c.Body = text
		c.UpdatedAt = c.UpdatedAt.Add(time.Minute)
		writeJSON(w, http.StatusOK, s.json(c))
		return
	}
	notFound(w)
}

// checkWrite validates a create or edit request body as GitHub does.
func (s *Server) checkWrite(w http.ResponseWriter, body []byte) (string, bool) {
	if s.ReadOnly {
		writeJSON(w, http.StatusForbidden, map[string]string{"message": "Resource not accessible by integration", "documentation_url": "https://docs.github.com/rest/issues/comments", "status": "403"})
		return "", false
	}
	var in struct {
		Body *string `json:"body"`
	}
	if err := json.Unmarshal(body, &in); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"message": "Problems parsing JSON"})
		return "", false
	}
	if in.Body == nil {
		writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"message": "Invalid request.\n\n\"body\" wasn't supplied."})
		return "", false
	}
	if utf8.RuneCountInString(*in.Body) > 65536 {
		writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"message": "Validation Failed",
			"errors": []map[string]string{{"resource": "IssueComment", "code": "custom", "field": "body", "message": "body is too long (maximum is 65536 characters)"}}})
		return "", false
	}
	return *in.Body, true
}

func (s *Server) json(c *Comment) map[string]any {
	owner, name, _ := strings.Cut(c.Repo, "/")
	return map[string]any{
		"id":                 c.ID,
		"node_id":            fmt.Sprintf("IC_kwDO%d", c.ID),
		"url":                fmt.Sprintf("%s%s/repos/%s/issues/comments/%d", s.URL, s.Prefix, c.Repo, c.ID),
		"html_url":           fmt.Sprintf("https://github.com/%s/%s/pull/%d#issuecomment-%d", owner, name, c.Issue, c.ID),
		"issue_url":          fmt.Sprintf("%s%s/repos/%s/issues/%d", s.URL, s.Prefix, c.Repo, c.Issue),
		"body":               c.Body,
		"user":               map[string]any{"login": c.Login, "id": len(c.Login), "type": c.UserType},
		"created_at":         c.CreatedAt.Format(time.RFC3339),
		"updated_at":         c.UpdatedAt.Format(time.RFC3339),
		"author_association": map[bool]string{true: "NONE", false: "CONTRIBUTOR"}[c.UserType == "Bot"],
	}
}

func notFound(w http.ResponseWriter) {
	writeJSON(w, http.StatusNotFound, map[string]string{"message": "Not Found", "documentation_url": "https://docs.github.com/rest", "status": "404"})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
