package ghview

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/kubeplan/kubeplan/internal/ghactions"
	"github.com/kubeplan/kubeplan/internal/ghcomment"
	"github.com/kubeplan/kubeplan/render"
)

// commenter keeps a view's sticky pull-request comment (a Single run's,
// one per cluster, namespace and ApplySet; a run over many projects', one
// per scope).
type commenter struct {
	run     ghactions.Run
	token   string
	comment bool
	version string // kubeplan's, for the User-Agent
	// login is the account the token writes as, from $KUBEPLAN_GITHUB_LOGIN
	// ("" asks GitHub; see ghcomment.Client.Login).
	login string
}

// EnvLogin names the account the token writes comments as, for a token
// GitHub cannot say it of (another GitHub App's: "SLUG[bot]"). Only a
// comment by that account is taken for kubeplan's.
const EnvLogin = "KUBEPLAN_GITHUB_LOGIN"

func newCommenter(env ghactions.Env, token string, comment bool, version string) commenter {
	return commenter{run: env.Run(), token: token, comment: comment, version: version, login: env(EnvLogin)}
}

// post creates or updates the pull request's comment that starts with
// marker, with markdown made to fit in room bytes. It only acts on
// pull_request and pull_request_target events, with a token and comments
// on; problems are warnings on s (see Plan). verb ("plan", "apply") names
// the command in the warnings and in what is printed.
func (c commenter) post(ctx context.Context, s step, marker, verb string, markdown func(room int) (string, error)) {
	if !c.comment || !c.run.IsPullRequest() {
		return
	}
	title := "kubeplan " + verb
	if c.token == "" {
		hint := "set GITHUB_TOKEN: ${{ github.token }} or pass --github-token"
		if verb == "apply" {
			hint = "set GITHUB_TOKEN: ${{ github.token }}"
		}
		s.warn(title, "not commenting on the pull request: no token ("+hint+"; --comment=false turns this off)")
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
	client := &ghcomment.Client{BaseURL: c.run.APIURL, Token: c.token, UserAgent: "kubeplan/" + c.version, Login: c.login}
	res, err := client.Upsert(ctx, ghcomment.Target{Repository: c.run.Repository, Number: pr}, marker, ghcomment.Body(marker, md, c.run.URL()))
	if err != nil {
		s.warn(title, s.mask.scrub(err.Error()))
		return
	}
	done := "updated"
	if res.Created {
		done = "created"
	}
	fmt.Fprintf(s.err, "kubeplan: %s the %s comment on pull request #%d: %s\n", done, verb, pr, res.URL)
	if res.Ignored > 0 {
		fmt.Fprintf(s.err, "kubeplan: left alone %d %s on pull request #%d that %s the %s comment's marker but %s written by another account\n",
			res.Ignored, plural(res.Ignored, "comment", "comments"), pr, plural(res.Ignored, "carries", "carry"), verb, plural(res.Ignored, "was", "were"))
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// failed puts what failed in the job summary and the comment marked
// marker, with every secret the view knows of replaced by ***.
func (c commenter) failed(ctx context.Context, s step, marker, namespace, applySet string, err error) {
	text := s.mask.scrub(err.Error())
	s.summary("kubeplan plan", func(w io.Writer, room int) error {
		return render.PlanFailedMarkdown(w, namespace, applySet, text, room)
	})
	c.post(ctx, s, marker, "plan", func(room int) (string, error) {
		var b strings.Builder
		err := render.PlanFailedMarkdown(&b, namespace, applySet, text, room)
		return b.String(), err
	})
}

// planned reports plans: the annotations, the markdown (rendered by
// markdown with the options given) in the job summary and the comment
// marked marker, and the outputs (name, value pairs: has-changes,
// summary, needs-approval, denied).
func (c commenter) planned(ctx context.Context, s step, marker string, anns []ghactions.Annotation, outputs []string,
	markdown func(w io.Writer, o render.PlanOptions) error) error {
	for _, a := range anns {
		s.command(a)
	}
	s.summary("kubeplan plan", func(w io.Writer, room int) error { return markdown(w, summaryOptions(room)) })
	if err := s.outputs(outputs...); err != nil {
		return err
	}
	c.post(ctx, s, marker, "plan", func(room int) (string, error) {
		var b strings.Builder
		err := markdown(&b, render.PlanOptions{MaxBytes: room, SummaryURL: c.run.URL()})
		return b.String(), err
	})
	return nil
}

// summaryOptions are the markdown options of the job summary: room bytes,
// and the note pointing to the job log.
func summaryOptions(room int) render.PlanOptions {
	return render.PlanOptions{MaxBytes: room, SummaryHint: "the job log", LimitName: "the job summary's 1 MiB limit"}
}
