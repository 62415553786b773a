package ghcomment

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Timeout bounds each request; a stuck API must not hold a CI job.
const Timeout = 30 * time.Second

// Client talks to the GitHub REST API at BaseURL with Token.
type Client struct {
	// BaseURL is the API root: "https://api.github.com" or, on GitHub
	// Enterprise Server, "https://HOST/api/v3".
	BaseURL string
	// Token is sent as "Authorization: Bearer TOKEN", only to BaseURL's host.
	Token string
	// UserAgent names the client, as GitHub requires.
	UserAgent string
	// HTTP is the client used; nil means one with Timeout.
	HTTP *http.Client
	// Login is the account the token writes as, when known ("" asks
	// GitHub; see author). Only what that account wrote is ever taken for
	// kubeplan's comment or issue.
	Login string

	self string // the login author found
}

// Comment is an issue or pull-request comment as the API returns it.
type Comment struct {
	ID      int64  `json:"id"`
	Body    string `json:"body"`
	HTMLURL string `json:"html_url"`
	User    struct {
		Login string `json:"login"`
		Type  string `json:"type"`
	} `json:"user"`
}

// APIError is a response other than the one asked for.
type APIError struct {
	Status  int
	Message string // GitHub's "message", or the status text
}

func (e *APIError) Error() string { return fmt.Sprintf("%d %s", e.Status, e.Message) }

// do sends one request to the URL u (absolute, on BaseURL's host) with body
// as JSON (nil for none), checks the status is want and decodes the answer
// into out (nil to ignore it). It returns the response headers.
func (c *Client) do(ctx context.Context, method, u string, body, out any, want int) (http.Header, error) {
	base, err := url.Parse(c.BaseURL)
	if err != nil || base.Host == "" {
		return nil, fmt.Errorf("GitHub API URL %q is not an absolute URL (check $GITHUB_API_URL)", c.BaseURL)
	}
	target, err := url.Parse(u)
	if err != nil || target.Scheme != base.Scheme || target.Host != base.Host {
		// A Link header pointing elsewhere must not receive the token.
		return nil, fmt.Errorf("refusing to send the token to %s: not the GitHub API at %s", redact(u), base.Host)
	}
	var rd io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.Token)
	req.Header.Set("Accept", "application/vnd.github+json")
	req.Header.Set("X-GitHub-Api-Version", "2022-11-28")
	req.Header.Set("User-Agent", c.UserAgent)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	hc := c.HTTP
	if hc == nil {
		hc = &http.Client{Timeout: Timeout}
	}
	resp, err := hc.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // the URL is said by the caller
		}
		return nil, fmt.Errorf("%s %s: %w", method, target.Path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 32<<20))
	if err != nil {
		return nil, fmt.Errorf("%s %s: reading the answer: %w", method, target.Path, err)
	}
	if resp.StatusCode != want {
		return nil, apiError(resp, data)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return nil, fmt.Errorf("%s %s: the answer is not the JSON GitHub sends: %w", method, target.Path, err)
		}
	}
	return resp.Header, nil
}

func apiError(resp *http.Response, data []byte) *APIError {
	var e struct {
		Message string `json:"message"`
	}
	msg := http.StatusText(resp.StatusCode)
	if json.Unmarshal(data, &e) == nil && e.Message != "" {
		msg = e.Message
	}
	return &APIError{Status: resp.StatusCode, Message: msg}
}

// repoURL is the API URL of repository ("owner/repo").
func (c *Client) repoURL(repository string) (string, error) {
	owner, repo, ok := strings.Cut(repository, "/")
	if !ok || owner == "" || repo == "" || strings.Contains(repo, "/") {
		return "", fmt.Errorf("repository %q is not OWNER/REPO (check $GITHUB_REPOSITORY)", repository)
	}
	return strings.TrimSuffix(c.BaseURL, "/") + "/repos/" + url.PathEscape(owner) + "/" + url.PathEscape(repo), nil
}

// redact drops the query and user info of a URL for an error message.
func redact(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return "an invalid URL"
	}
	p.User, p.RawQuery = nil, ""
	return p.String()
}

// nextLink returns the rel="next" URL of a Link header, or "".
func nextLink(h http.Header) string {
	for _, v := range h.Values("Link") {
		for part := range strings.SplitSeq(v, ",") {
			target, params, ok := strings.Cut(part, ";")
			if !ok {
				continue
			}
			for p := range strings.SplitSeq(params, ";") {
				if strings.ReplaceAll(strings.TrimSpace(p), " ", "") == `rel="next"` {
					return strings.Trim(strings.TrimSpace(target), "<>")
				}
			}
		}
	}
	return ""
}

// Get sends GET {BaseURL}{path} (path starts with "/" and may carry a
// query) and decodes the JSON answer into out. A status other than 200 is
// an error wrapping an *APIError; every error names the request, never the
// token.
func (c *Client) Get(ctx context.Context, path string, out any) error {
	_, err := c.get(ctx, strings.TrimSuffix(c.BaseURL, "/")+path, out)
	return err
}

// GetPages sends GET {BaseURL}{path} and follows the answers' Link
// rel="next" for at most maxPages pages, decoding each page (a JSON list)
// and handing its items to add. more is true when a next page was left
// unread because of maxPages.
func GetPages[T any](ctx context.Context, c *Client, path string, maxPages int, add func(T) error) (more bool, err error) {
	u := strings.TrimSuffix(c.BaseURL, "/") + path
	for pages := 0; u != ""; pages++ {
		if pages == maxPages {
			return true, nil
		}
		var page []T
		h, err := c.get(ctx, u, &page)
		if err != nil {
			return false, err
		}
		for _, item := range page {
			if err := add(item); err != nil {
				return false, err
			}
		}
		u = nextLink(h)
	}
	return false, nil
}

// get is do for a GET of the absolute URL u, with the request named in
// an API error.
func (c *Client) get(ctx context.Context, u string, out any) (http.Header, error) {
	h, err := c.do(ctx, http.MethodGet, u, nil, out, http.StatusOK)
	var ae *APIError
	if errors.As(err, &ae) {
		// do names the request in the other errors.
		return nil, fmt.Errorf("GET %s: %w", requestPath(u), err)
	}
	return h, err
}

// requestPath is u's path and query, for an error message: what the token
// is sent with never is in it, and a URL that does not parse is not shown.
func requestPath(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return "(an invalid URL)"
	}
	return p.RequestURI()
}
