package ghcomment

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"unicode/utf8"
)

// Status is a commit status.
type Status struct {
	State       string `json:"state"`                 // error, failure, pending or success
	Description string `json:"description,omitempty"` // at most 140 characters; longer is cut
	Context     string `json:"context"`               // e.g. "kubeplan/store"
	TargetURL   string `json:"target_url,omitempty"`
}

// MaxStatusDescription is the longest description GitHub accepts.
const MaxStatusDescription = 140

// SetStatus sets a commit status on sha in repository ("owner/repo"):
//
//	POST {api}/repos/{owner}/{repo}/statuses/{sha}
//
// A description longer than GitHub accepts is cut to fit, ending in "…".
func (c *Client) SetStatus(ctx context.Context, repository, sha string, s Status) error {
	repoURL, err := c.repoURL(repository)
	if err != nil {
		return err
	}
	if sha == "" {
		return fmt.Errorf("no commit to set status %s on", s.Context)
	}
	s.Description = Truncate(s.Description, MaxStatusDescription)
	if _, err := c.do(ctx, http.MethodPost, repoURL+"/statuses/"+url.PathEscape(sha), s, nil, http.StatusCreated); err != nil {
		return fmt.Errorf("cannot set commit status %s on %s: %w", s.Context, shortSHA(sha), err)
	}
	return nil
}

// Truncate cuts s to at most n characters (runes), ending in "…" when cut.
func Truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

func shortSHA(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}
