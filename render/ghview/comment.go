package ghview

import (
	"context"
	"fmt"

	"github.com/kubeplan/kubeplan/internal/ghactions"
	"github.com/kubeplan/kubeplan/internal/ghcomment"
)

// commenter keeps a view's sticky pull-request comment (Plan's, one per
// cluster, namespace and ApplySet; Run's, one per scope).
type commenter struct {
	run     ghactions.Run
	token   string
	comment bool
	version string // kubeplan's, for the User-Agent
}

func newCommenter(env ghactions.Env, token string, comment bool, version string) commenter {
	return commenter{run: env.Run(), token: token, comment: comment, version: version}
}

// post creates or updates the pull request's comment that starts with
// marker, with markdown made to fit in room bytes. It only acts on
// pull_request and pull_request_target events, with a token and comments
// on; problems are warnings on s (see Plan).
func (c commenter) post(ctx context.Context, s step, marker string, markdown func(room int) (string, error)) {
	if !c.comment || !c.run.IsPullRequest() {
		return
	}
	const title = "kubeplan plan"
	if c.token == "" {
		s.warn(title, "not commenting on the pull request: no token (set GITHUB_TOKEN: ${{ github.token }} or pass --github-token; --comment=false turns this off)")
		return
	}
	pr, err := c.run.PullRequestNumber()
	if err != nil {
		s.warn(title, "not commenting on the pull request: "+err.Error())
		return
	}
	// Bytes are never fewer than characters, so this fits GitHub's limit.
	md, err := markdown(ghcomment.MaxChars - len(marker) - 1)
	if err != nil {
		s.warn(title, fmt.Sprintf("cannot comment on pull request #%d: %v", pr, err))
		return
	}
	client := &ghcomment.Client{BaseURL: c.run.APIURL, Token: c.token, UserAgent: "kubeplan/" + c.version}
	res, err := client.Upsert(ctx, ghcomment.Target{Repository: c.run.Repository, Number: pr}, marker, ghcomment.Body(marker, md, c.run.URL()))
	if err != nil {
		s.warn(title, s.mask.scrub(err.Error()))
		return
	}
	verb := "updated"
	if res.Created {
		verb = "created"
	}
	fmt.Fprintf(s.err, "kubeplan: %s the plan comment on pull request #%d: %s\n", verb, pr, res.URL)
}
