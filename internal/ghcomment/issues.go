package ghcomment

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
)

// Issue is an issue as the API returns it.
type Issue struct {
	Number      int    `json:"number"`
	Title       string `json:"title"`
	State       string `json:"state"` // open or closed
	HTMLURL     string `json:"html_url"`
	PullRequest *struct {
		URL string `json:"url"`
	} `json:"pull_request,omitempty"` // set when the "issue" is a pull request
}

// FindOpenIssue returns the oldest open issue of repository that carries
// label and is titled title, or nil when there is none:
//
//	GET {api}/repos/{owner}/{repo}/issues?state=open&labels=LABEL&sort=created&direction=asc&per_page=100
//
// following the pagination. Pull requests, which that list includes, never match.
func (c *Client) FindOpenIssue(ctx context.Context, repository, label, title string) (*Issue, error) {
	repoURL, err := c.repoURL(repository)
	if err != nil {
		return nil, err
	}
	q := url.Values{"state": {"open"}, "labels": {label}, "sort": {"created"}, "direction": {"asc"}, "per_page": {"100"}}
	u := repoURL + "/issues?" + q.Encode()
	for pages := 0; u != ""; pages++ {
		if pages == 100 {
			return nil, errors.New("more than 10,000 open issues; giving up looking for one")
		}
		var page []Issue
		h, err := c.do(ctx, http.MethodGet, u, nil, &page, http.StatusOK)
		if err != nil {
			return nil, fmt.Errorf("cannot list the issues labelled %s: %w", label, err)
		}
		for i := range page {
			if page[i].PullRequest == nil && page[i].Title == title {
				return &page[i], nil
			}
		}
		u = nextLink(h)
	}
	return nil, nil
}

// CreateIssue opens an issue:
//
//	POST {api}/repos/{owner}/{repo}/issues
func (c *Client) CreateIssue(ctx context.Context, repository, title, body string, labels []string) (Issue, error) {
	repoURL, err := c.repoURL(repository)
	if err != nil {
		return Issue{}, err
	}
	in := map[string]any{"title": title, "body": body, "labels": labels}
	var got Issue
	if _, err := c.do(ctx, http.MethodPost, repoURL+"/issues", in, &got, http.StatusCreated); err != nil {
		return Issue{}, fmt.Errorf("cannot open issue %q: %w", title, err)
	}
	return got, nil
}

// CloseIssue comments on issue number (when comment is not empty) and closes it as completed:
//
//	POST  {api}/repos/{owner}/{repo}/issues/{number}/comments
//	PATCH {api}/repos/{owner}/{repo}/issues/{number}
func (c *Client) CloseIssue(ctx context.Context, repository string, number int, comment string) error {
	repoURL, err := c.repoURL(repository)
	if err != nil {
		return err
	}
	issueURL := fmt.Sprintf("%s/issues/%d", repoURL, number)
	if comment != "" {
		if _, err := c.do(ctx, http.MethodPost, issueURL+"/comments", map[string]string{"body": comment}, nil, http.StatusCreated); err != nil {
			return fmt.Errorf("cannot comment on issue #%d: %w", number, err)
		}
	}
	in := map[string]string{"state": "closed", "state_reason": "completed"}
	if _, err := c.do(ctx, http.MethodPatch, issueURL, in, nil, http.StatusOK); err != nil {
		return fmt.Errorf("cannot close issue #%d: %w", number, err)
	}
	return nil
}
