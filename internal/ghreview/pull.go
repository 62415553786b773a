package ghreview

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/kubeplan/kubeplan/internal/ghcomment"
)

// pull is a pull request as the API returns it, what this package reads
// of it.
type pull struct {
	Number         int     `json:"number"`
	State          string  `json:"state"`
	MergedAt       *string `json:"merged_at"`
	MergeCommitSHA string  `json:"merge_commit_sha"`
	User           *struct {
		Login string `json:"login"`
	} `json:"user"`
	Head struct {
		SHA string `json:"sha"`
	} `json:"head"`
	Base struct {
		SHA string `json:"sha"`
		Ref string `json:"ref"`
	} `json:"base"`
	Labels []struct {
		Name string `json:"name"`
	} `json:"labels"`
}

// author is the login of who opened the pull request ("" when GitHub
// no longer knows the account).
func (p *pull) author() string {
	if p.User == nil {
		return ""
	}
	return p.User.Login
}

// label returns the first of names (kubeplan.yaml's, as written) that the
// pull request carries, or "". GitHub compares label names case aside.
func (p *pull) label(names []string) string {
	for _, n := range names {
		for _, l := range p.Labels {
			if n != "" && strings.EqualFold(l.Name, n) {
				return n
			}
		}
	}
	return ""
}

// maxPullPages bounds the pull requests read for a commit: one page of
// 100 is already more than a commit is ever part of.
const maxPullPages = 2

// pullRequest finds the run's pull request: on a pull request event the
// event's own, read again (GET pulls/{n}) for its labels and head; on a
// push, the pull request that was merged as the pushed commit. nil, nil:
// there is none (a direct push), or the pull request moved on since the
// event (a note says which).
func (a *call) pullRequest(ctx context.Context) (*pull, error) {
	repo, err := repoPath(a.run.Repository)
	if err != nil {
		return nil, err
	}
	if a.run.IsPullRequest() {
		n, err := a.run.PullRequestNumber()
		if err != nil {
			return nil, err
		}
		head, err := a.run.PullRequestHeadSHA()
		if err != nil {
			return nil, err
		}
		var p pull
		if err := a.client.Get(ctx, fmt.Sprintf("%s/pulls/%d", repo, n), &p); err != nil {
			return nil, apiErr(fmt.Sprintf("reading pull request #%d", n), err)
		}
		if p.Head.SHA != head {
			a.note("pull request #%d moved on to %s since this run's commit %s; approvals are looked for on the run of the new commit", n, short(p.Head.SHA), short(head))
			return nil, nil
		}
		return &p, nil
	}
	sha := a.run.SHA
	if sha == "" {
		return nil, fmt.Errorf("$GITHUB_SHA is not set, so the pushed commit is unknown")
	}
	var found *pull
	_, err = ghcomment.GetPages(ctx, a.client, repo+"/commits/"+url.PathEscape(sha)+"/pulls?per_page=100", maxPullPages, func(p pull) error {
		if p.MergedAt == nil || *p.MergedAt == "" {
			return nil
		}
		if b := a.run.Branch(); b != "" && p.Base.Ref != b {
			return nil // merged into another branch
		}
		switch {
		case p.MergeCommitSHA == sha && (found == nil || found.MergeCommitSHA != sha):
			// A merge, squash or rebase merge makes the pushed commit its
			// merge_commit_sha.
			found = &p
		case p.Head.SHA == sha && found == nil:
			// A fast-forward: the pull request's head itself was pushed.
			found = &p
		}
		return nil
	})
	if err != nil {
		return nil, apiErr("finding the pull request merged as commit "+short(sha), err)
	}
	if found == nil {
		a.note("no pull request was merged as commit %s (a direct push), so no review or label approves it", short(sha))
	}
	return found, nil
}

// repoPath is the API path of repository ("owner/repo").
func repoPath(repository string) (string, error) {
	owner, name, ok := strings.Cut(repository, "/")
	if !ok || owner == "" || name == "" || strings.Contains(name, "/") {
		return "", fmt.Errorf("repository %q is not OWNER/REPO (check $GITHUB_REPOSITORY)", repository)
	}
	return "/repos/" + url.PathEscape(owner) + "/" + url.PathEscape(name), nil
}

// short is a commit's first 12 characters, for a message.
func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}
