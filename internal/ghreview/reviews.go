package ghreview

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/kubeplan/kubeplan/internal/ghcomment"
)

// maxReviewPages bounds the reviews read: 500 reviews. A pull request
// with more has none of them counted, since the last word of a reviewer
// might be on a page left unread.
const maxReviewPages = 5

// review is a pull request review as the API returns it.
type review struct {
	ID   int64 `json:"id"`
	User *struct {
		Login string `json:"login"`
	} `json:"user"`
	State       string `json:"state"` // APPROVED, CHANGES_REQUESTED, COMMENTED, DISMISSED, PENDING
	CommitID    string `json:"commit_id"`
	SubmittedAt string `json:"submitted_at"`
}

// approval is a review that counts: the reviewer's login, lower case, as
// written, and when.
type approval struct {
	login, name string
	at          time.Time
}

// approvingReviews returns the reviews that count on pr, in the order they
// were given: for each reviewer, the latest review that is APPROVED,
// CHANGES_REQUESTED or DISMISSED (a comment neither gives nor takes an
// approval back), when it is APPROVED, was given on the pull request's
// head commit, and the reviewer did not open the pull request.
func (a *call) approvingReviews(ctx context.Context, pr *pull) ([]approval, error) {
	repo, err := repoPath(a.run.Repository)
	if err != nil {
		return nil, err
	}
	var all []review
	more, err := ghcomment.GetPages(ctx, a.client, fmt.Sprintf("%s/pulls/%d/reviews?per_page=100", repo, pr.Number), maxReviewPages, func(r review) error {
		all = append(all, r)
		return nil
	})
	if err != nil {
		return nil, apiErr(fmt.Sprintf("reading the reviews of pull request #%d", pr.Number), err)
	}
	if more {
		a.note("pull request #%d has more than %d reviews; none is counted", pr.Number, maxReviewPages*100)
		return nil, nil
	}
	// Review ids grow with time; the API lists them so, and sorting
	// keeps the last word last whatever the pages did.
	slices.SortStableFunc(all, func(x, y review) int { return int(min(max(x.ID-y.ID, -1), 1)) })
	latest := map[string]review{}
	var order []string
	for _, r := range all {
		if r.User == nil || !slices.Contains([]string{"APPROVED", "CHANGES_REQUESTED", "DISMISSED"}, r.State) {
			continue
		}
		k := strings.ToLower(r.User.Login)
		if _, ok := latest[k]; !ok {
			order = append(order, k)
		}
		latest[k] = r
	}
	var out []approval
	for _, k := range order {
		r := latest[k]
		name := r.User.Login
		switch {
		case r.State != "APPROVED":
			a.note("@%s's last word on pull request #%d is %s, which cancels an earlier approval", printableLogin(name), pr.Number, strings.ToLower(r.State))
		case !isLogin(name): // a bot's "name[bot]" is not a code owner
			a.note("a review by %q is not a user's, so it is not a code owner's", name)
		case strings.EqualFold(name, pr.author()):
			a.note("@%s opened pull request #%d, so their own approval does not count", name, pr.Number)
		case r.CommitID != pr.Head.SHA:
			a.note("@%s approved commit %s of pull request #%d, not its last commit %s", name, short(r.CommitID), pr.Number, short(pr.Head.SHA))
		default:
			at, err := time.Parse(time.RFC3339, r.SubmittedAt)
			if err != nil {
				at = a.now()
			}
			out = append(out, approval{login: k, name: name, at: at.UTC()})
		}
	}
	if len(out) == 0 {
		a.note("pull request #%d has no approving review on its last commit %s", pr.Number, short(pr.Head.SHA))
	}
	return out, nil
}

// printableLogin is a login for a note: as is when it is one, else quoted.
func printableLogin(s string) string {
	if isLogin(s) {
		return s
	}
	return fmt.Sprintf("%q", s)
}
