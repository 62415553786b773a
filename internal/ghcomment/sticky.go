package ghcomment

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// Target is the pull request a comment belongs to.
type Target struct {
	Repository string // "owner/repo"
	Number     int    // the pull request number
}

// Result says what Upsert did.
type Result struct {
	ID      int64
	URL     string // the comment's html_url
	Created bool   // true: a new comment; false: an existing one was edited
	// Ignored counts the comments that carry the marker but were written
	// by another account: never edited, never taken for the plan.
	Ignored int
}

// Upsert makes the pull request have one comment starting with marker and
// holding body (which must start with the marker, see Body): it lists the
// comments, edits the first one whose first line is the marker and whose
// author is the account the token writes as (see Client.Login), and
// creates one when there is none. A comment by anyone else is never
// edited, even when it carries the marker: anyone can write the marker,
// and a plan comment kubeplan did not write must not pass for its own.
func (c *Client) Upsert(ctx context.Context, t Target, marker, body string) (Result, error) {
	res, err := c.upsert(ctx, t, marker, body)
	if err != nil {
		return Result{}, fmt.Errorf("cannot comment on pull request #%d: %w", t.Number, explain(err))
	}
	return res, nil
}

func (c *Client) upsert(ctx context.Context, t Target, marker, body string) (Result, error) {
	repoURL, err := c.repoURL(t.Repository)
	if err != nil {
		return Result{}, err
	}
	if t.Number <= 0 {
		return Result{}, fmt.Errorf("no pull request number")
	}
	if !HasMarker(body, marker) {
		return Result{}, errors.New("the comment body does not start with its marker")
	}
	existing, ignored, err := c.find(ctx, fmt.Sprintf("%s/issues/%d/comments?per_page=100", repoURL, t.Number), marker)
	if err != nil {
		return Result{}, err
	}
	var got Comment
	if existing != nil {
		if _, err := c.do(ctx, http.MethodPatch, fmt.Sprintf("%s/issues/comments/%d", repoURL, existing.ID),
			map[string]string{"body": body}, &got, http.StatusOK); err != nil {
			return Result{}, err
		}
		return Result{ID: got.ID, URL: got.HTMLURL, Ignored: ignored}, nil
	}
	if _, err := c.do(ctx, http.MethodPost, fmt.Sprintf("%s/issues/%d/comments", repoURL, t.Number),
		map[string]string{"body": body}, &got, http.StatusCreated); err != nil {
		return Result{}, err
	}
	return Result{ID: got.ID, URL: got.HTMLURL, Created: true, Ignored: ignored}, nil
}

// find returns the first comment, oldest first, whose first line is marker
// and whose author is the token's account, following the pagination of the
// list at u, and how many comments with the marker by others it passed.
// The account is asked for only when a comment carries the marker.
func (c *Client) find(ctx context.Context, u, marker string) (*Comment, int, error) {
	ignored := 0
	for pages := 0; u != ""; pages++ {
		if pages == 100 {
			return nil, ignored, errors.New("more than 10,000 comments; giving up looking for the plan comment")
		}
		var page []Comment
		h, err := c.do(ctx, http.MethodGet, u, nil, &page, http.StatusOK)
		if err != nil {
			return nil, ignored, err
		}
		for i := range page {
			if !HasMarker(page[i].Body, marker) {
				continue
			}
			self, err := c.author(ctx)
			if err != nil {
				return nil, ignored, err
			}
			if isAuthor(page[i].User.Login, self) {
				return &page[i], ignored, nil
			}
			ignored++
		}
		u = nextLink(h)
	}
	return nil, ignored, nil
}

// explain adds what to do to the API errors a workflow meets.
func explain(err error) error {
	var ae *APIError
	if !errors.As(err, &ae) {
		return err
	}
	switch ae.Status {
	case http.StatusUnauthorized:
		return fmt.Errorf("%w; the token was refused: check --github-token or $GITHUB_TOKEN", err)
	case http.StatusForbidden:
		if strings.Contains(strings.ToLower(ae.Message), "rate limit") {
			return fmt.Errorf("%w; try again later", err)
		}
		return fmt.Errorf("%w; give the workflow 'pull-requests: write' (a pull request from a fork only gets a read-only token)", err)
	case http.StatusNotFound:
		return fmt.Errorf("%w; check $GITHUB_REPOSITORY and the pull request number, and that the token can see the repository", err)
	}
	return err
}
