package ghreview

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/kubeplan/kubeplan/internal/ghcomment"
)

// codeownersPaths are where GitHub looks for CODEOWNERS, in its order: the
// first that exists is the one.
var codeownersPaths = []string{".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS"}

// content is a file as the contents and blobs APIs return it.
type content struct {
	Type     string `json:"type"`
	Encoding string `json:"encoding"`
	Content  string `json:"content"`
	Size     int64  `json:"size"`
	SHA      string `json:"sha"`
}

// codeowners reads CODEOWNERS from the base commit through the API, never
// from the checkout: the pull request could change its own copy. nil,
// nil: there is none, or it is over GitHub's size limit (a note says).
func (a *call) codeowners(ctx context.Context, base string) (*Codeowners, error) {
	repo, err := repoPath(a.run.Repository)
	if err != nil {
		return nil, err
	}
	if base == "" {
		return nil, errors.New("the pull request's base commit is unknown, so its CODEOWNERS cannot be read")
	}
	for _, p := range codeownersPaths {
		var c content
		err := a.client.Get(ctx, repo+"/contents/"+p+"?ref="+url.QueryEscape(base), &c)
		var ae *ghcomment.APIError
		if errors.As(err, &ae) && ae.Status == http.StatusNotFound {
			continue
		}
		if err != nil {
			return nil, apiErr("reading "+p+" at the base commit "+short(base), err)
		}
		if c.Type != "file" {
			continue
		}
		if c.Size > maxCodeownersBytes {
			a.note("%s is over GitHub's 3 MB limit at the base commit %s, so nobody is a code owner", p, short(base))
			return nil, nil
		}
		if c.Encoding != "base64" {
			// Over 1 MB the contents API leaves the content out; the blob
			// API has it.
			if err := a.client.Get(ctx, repo+"/git/blobs/"+url.PathEscape(c.SHA), &c); err != nil {
				return nil, apiErr("reading "+p+" at the base commit "+short(base), err)
			}
		}
		data, err := base64.StdEncoding.DecodeString(strings.ReplaceAll(c.Content, "\n", ""))
		if err != nil || c.Encoding != "base64" {
			return nil, fmt.Errorf("reading %s at the base commit %s: the API's answer is not base64 content", p, short(base))
		}
		co := ParseCodeowners(p, data)
		for _, s := range co.Skipped {
			a.note("skipped as GitHub does: %s", s)
		}
		return &co, nil
	}
	a.note("no CODEOWNERS (.github/, the root or docs/) at the base commit %s, so nobody is a code owner", short(base))
	return nil, nil
}

// inTeam reports whether login is an active member of team ("org/slug"):
//
//	GET {api}/orgs/{org}/teams/{slug}/memberships/{login}
//
// A 404 (not a member, or a team the token cannot see) or a 403 (the
// token may not read the organization's teams, as the GITHUB_TOKEN may
// not) is not a member, with a note.
func (a *call) inTeam(ctx context.Context, team, login string) (bool, error) {
	return remember(a, "member "+team+" "+login, func() (bool, error) {
		org, slug, _ := strings.Cut(team, "/")
		var m struct {
			State string `json:"state"`
		}
		err := a.client.Get(ctx, "/orgs/"+url.PathEscape(org)+"/teams/"+url.PathEscape(slug)+"/memberships/"+url.PathEscape(login), &m)
		var ae *ghcomment.APIError
		switch {
		case errors.As(err, &ae) && ae.Status == http.StatusNotFound:
			a.note("@%s is not a member of @%s (or the token cannot see the team)", login, team)
		case errors.As(err, &ae) && ae.Status == http.StatusForbidden:
			a.note("the token may not read the members of @%s (it needs the organization's members: read), so @%s is not taken for a member", team, login)
		case err != nil:
			return false, apiErr("reading @"+login+"'s membership of @"+team, err)
		case m.State != "active":
			a.note("@%s's membership of @%s is %q, not active", login, team, m.State)
		}
		return err == nil && m.State == "active", nil
	})
}
