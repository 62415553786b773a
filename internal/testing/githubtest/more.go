package githubtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// Status is a stored commit status.
type Status struct {
	Repo, SHA                              string
	State, Description, Context, TargetURL string
}

// Issue is a stored issue; its comments are stored as Comments of its number.
type Issue struct {
	Number      int
	Repo        string
	Title, Body string
	State       string // open or closed
	StateReason string
	Labels      []string
	Login       string
	PullRequest bool // a pull request, which the issues list includes
}

// FailNext makes the next len(statuses) requests, whatever they are, fail
// with these HTTP statuses (e.g. 502, 503) before anything else is checked.
func (s *Server) FailNext(statuses ...int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failures = append(s.failures, statuses...)
}

// FailOn makes every later request whose path holds part fail with
// status (e.g. 502), after the token and User-Agent are checked.
func (s *Server) FailOn(part string, status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failOn == nil {
		s.failOn = map[string]int{}
	}
	s.failOn[part] = status
}

// Statuses returns the commit statuses set on sha of repo, oldest first.
func (s *Server) Statuses(repo, sha string) []Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Status
	for _, st := range s.statuses {
		if st.Repo == repo && st.SHA == sha {
			out = append(out, st)
		}
	}
	return out
}

// AllStatuses returns every commit status set, oldest first.
func (s *Server) AllStatuses() []Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Status(nil), s.statuses...)
}

// AddIssue stores an open issue (or pull request) as if login had opened it,
// and returns its number.
func (s *Server) AddIssue(repo, login, title string, labels []string, pullRequest bool) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addIssue(repo, login, title, "", labels, pullRequest).Number
}

func (s *Server) addIssue(repo, login, title, body string, labels []string, pr bool) *Issue {
	n := 1
	for _, is := range s.issues {
		if is.Repo == repo {
			n = max(n, is.Number+1)
		}
	}
	is := &Issue{Number: n, Repo: repo, Title: title, Body: body, State: "open", Labels: labels, Login: login, PullRequest: pr}
	s.issues = append(s.issues, is)
	return is
}

// Issues returns copies of the stored issues of repo, oldest first.
func (s *Server) Issues(repo string) []Issue {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Issue
	for _, is := range s.issues {
		if is.Repo == repo {
			c := *is
			c.Labels = slices.Clone(is.Labels)
			out = append(out, c)
		}
	}
	return out
}

var (
	statusPath = regexp.MustCompile(`^/repos/([^/]+)/([^/]+)/statuses/([0-9a-fA-F]{4,64})$`)
	issuesPath = regexp.MustCompile(`^/repos/([^/]+)/([^/]+)/issues$`)
	issuePath  = regexp.MustCompile(`^/repos/([^/]+)/([^/]+)/issues/([0-9]+)$`)
)

// serveMore answers the statuses and issues endpoints; false: not one of them.
func (s *Server) serveMore(w http.ResponseWriter, r *http.Request, path string, body []byte) bool {
	var m []string
	for _, re := range []*regexp.Regexp{statusPath, issuesPath, issuePath} {
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
	case statusPath.MatchString(path) && r.Method == http.MethodPost:
		s.createStatus(w, repo, m[3], body)
	case issuesPath.MatchString(path) && r.Method == http.MethodGet:
		s.listIssues(w, r, repo)
	case issuesPath.MatchString(path) && r.Method == http.MethodPost:
		s.createIssue(w, repo, body)
	case issuePath.MatchString(path) && r.Method == http.MethodPatch:
		s.editIssue(w, repo, atoi(m[3]), body)
	default:
		notFound(w)
	}
	return true
}

func (s *Server) createStatus(w http.ResponseWriter, repo, sha string, body []byte) {
	if s.ReadOnly {
		forbidden(w)
		return
	}
	var in struct {
		State       string `json:"state"`
		Description string `json:"description"`
		Context     string `json:"context"`
		TargetURL   string `json:"target_url"`
	}
	if err := json.Unmarshal(body, &in); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"message": "Problems parsing JSON"})
		return
	}
	if !slices.Contains([]string{"error", "failure", "pending", "success"}, in.State) {
		invalid(w, "Status", "state", "state is not included in the list")
		return
	}
	if utf8.RuneCountInString(in.Description) > 140 {
		invalid(w, "Status", "description", "description is too long (maximum is 140 characters)")
		return
	}
	if in.Context == "" {
		in.Context = "default"
	}
	st := Status{Repo: repo, SHA: sha, State: in.State, Description: in.Description, Context: in.Context, TargetURL: in.TargetURL}
	s.statuses = append(s.statuses, st)
	writeJSON(w, http.StatusCreated, map[string]any{"id": len(s.statuses), "state": st.State, "description": st.Description,
		"context": st.Context, "target_url": st.TargetURL, "creator": map[string]any{"login": s.Login}})
}

func (s *Server) listIssues(w http.ResponseWriter, r *http.Request, repo string) {
	q := r.URL.Query()
	state := q.Get("state")
	if state == "" {
		state = "open"
	}
	var labels []string
	if l := q.Get("labels"); l != "" {
		labels = strings.Split(l, ",")
	}
	var all []*Issue
	for _, is := range s.issues {
		if is.Repo != repo || (state != "all" && is.State != state) {
			continue
		}
		if !containsAll(is.Labels, labels) {
			continue
		}
		all = append(all, is)
	}
	if q.Get("direction") != "asc" {
		slices.Reverse(all) // newest first, GitHub's default
	}
	perPage, page := 30, 1
	if v := q.Get("per_page"); v != "" {
		perPage = min(max(atoi(v), 1), 100)
	}
	if v := q.Get("page"); v != "" {
		page = max(atoi(v), 1)
	}
	last := max(1, (len(all)+perPage-1)/perPage)
	from, to := min((page-1)*perPage, len(all)), min(page*perPage, len(all))
	out := make([]map[string]any, 0, to-from)
	for _, is := range all[from:to] {
		out = append(out, s.issueJSON(is))
	}
	if page < last {
		q.Set("page", fmt.Sprint(page+1))
		w.Header().Set("Link", fmt.Sprintf(`<%s%s?%s>; rel="next"`, s.URL, r.URL.Path, q.Encode()))
	}
	writeJSON(w, http.StatusOK, out)
}

func containsAll(have, want []string) bool {
	for _, l := range want {
		if !slices.Contains(have, l) {
			return false
		}
	}
	return true
}

func (s *Server) createIssue(w http.ResponseWriter, repo string, body []byte) {
	if s.ReadOnly {
		forbidden(w)
		return
	}
	var in struct {
		Title  string   `json:"title"`
		Body   string   `json:"body"`
		Labels []string `json:"labels"`
	}
	if err := json.Unmarshal(body, &in); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"message": "Problems parsing JSON"})
		return
	}
	if in.Title == "" {
		invalid(w, "Issue", "title", "missing_field")
		return
	}
	if utf8.RuneCountInString(in.Body) > 65536 {
		invalid(w, "Issue", "body", "body is too long (maximum is 65536 characters)")
		return
	}
	writeJSON(w, http.StatusCreated, s.issueJSON(s.addIssue(repo, s.Login, in.Title, in.Body, in.Labels, false)))
}

func (s *Server) editIssue(w http.ResponseWriter, repo string, number int, body []byte) {
	if s.ReadOnly {
		forbidden(w)
		return
	}
	var in struct {
		State       *string `json:"state"`
		StateReason *string `json:"state_reason"`
		Title       *string `json:"title"`
		Body        *string `json:"body"`
	}
	if err := json.Unmarshal(body, &in); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"message": "Problems parsing JSON"})
		return
	}
	for _, is := range s.issues {
		if is.Repo != repo || is.Number != number {
			continue
		}
		if in.State != nil {
			if *in.State != "open" && *in.State != "closed" {
				invalid(w, "Issue", "state", "state is not included in the list")
				return
			}
			is.State = *in.State
		}
		if in.StateReason != nil {
			is.StateReason = *in.StateReason
		}
		if in.Title != nil {
			is.Title = *in.Title
		}
		if in.Body != nil {
			is.Body = *in.Body
		}
		writeJSON(w, http.StatusOK, s.issueJSON(is))
		return
	}
	notFound(w)
}

func (s *Server) issueJSON(is *Issue) map[string]any {
	labels := make([]map[string]any, 0, len(is.Labels))
	for _, l := range is.Labels {
		labels = append(labels, map[string]any{"name": l})
	}
	kind := "issues"
	out := map[string]any{
		"number": is.Number, "title": is.Title, "body": is.Body, "state": is.State, "labels": labels,
		"user": map[string]any{"login": is.Login},
	}
	if is.PullRequest {
		kind = "pull"
		out["pull_request"] = map[string]any{"url": fmt.Sprintf("%s%s/repos/%s/pulls/%d", s.URL, s.Prefix, is.Repo, is.Number)}
	}
	if is.StateReason != "" {
		out["state_reason"] = is.StateReason
	}
	out["html_url"] = fmt.Sprintf("https://github.com/%s/%s/%d", is.Repo, kind, is.Number)
	return out
}

func forbidden(w http.ResponseWriter) {
	writeJSON(w, http.StatusForbidden, map[string]string{"message": "Resource not accessible by integration", "documentation_url": "https://docs.github.com/rest", "status": "403"})
}

func invalid(w http.ResponseWriter, resource, field, msg string) {
	writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"message": "Validation Failed",
		"errors": []map[string]string{{"resource": resource, "code": "custom", "field": field, "message": msg}}})
}
