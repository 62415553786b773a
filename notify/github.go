package notify

import (
	"context"
	"errors"
	"net/http"

	"github.com/kubeplan/kubeplan/internal/ghcomment"
)

// DriftLabel labels the issues opened for a failing drift repair.
const DriftLabel = "kubeplan-drift"

// commitStatus sets the commit status kubeplan/<project> on the run's
// revision when its result there differs from the last one set.
func (n *Notifier) commitStatus(ctx context.Context, r Run, st *ProjectState) error {
	if r.Revision == "" {
		return nil
	}
	s := ghcomment.Status{State: "success", Context: "kubeplan/" + r.Project, Description: n.cfg.Words.StatusDescription(r, n.errorText(r.Err))}
	if r.Err != nil {
		s.State = "failure"
	}
	key := r.Revision + " " + s.State
	if st.Status == key {
		return nil
	}
	err := n.retry(ctx, func(ctx context.Context) error {
		return n.gh.SetStatus(ctx, n.cfg.GitHubRepository, r.Revision, s)
	})
	if err != nil {
		return err
	}
	st.Status = key
	return nil
}

// driftIssue opens an issue when a scheduled run fails (unless one is open
// for the project), and closes it with a comment when the project runs
// successfully again.
func (n *Notifier) driftIssue(ctx context.Context, r Run, st *ProjectState) error {
	repo, title := n.cfg.GitHubRepository, n.cfg.Words.DriftTitle(r.Project)
	if r.Err != nil {
		if !r.Scheduled || st.DriftIssue != 0 {
			return nil
		}
		var found *ghcomment.Issue
		err := n.retry(ctx, func(ctx context.Context) (err error) {
			found, err = n.gh.FindOpenIssue(ctx, repo, DriftLabel, title)
			return err
		})
		if err != nil {
			return err
		}
		if found == nil {
			var created ghcomment.Issue
			err := n.retry(ctx, func(ctx context.Context) (err error) {
				created, err = n.gh.CreateIssue(ctx, repo, title, n.cfg.Words.DriftBody(r, n.errorText(r.Err), st.FailingSince), []string{DriftLabel})
				return err
			})
			if err != nil {
				return err
			}
			found = &created
		}
		st.DriftIssue = found.Number
		return nil
	}
	number := st.DriftIssue
	if number == 0 {
		if !st.Failing {
			return nil // fine before, fine now: nothing to close
		}
		// Recovered, with no issue remembered (a state lost in a restart):
		// close the one a previous process may have opened.
		var found *ghcomment.Issue
		err := n.retry(ctx, func(ctx context.Context) (err error) {
			found, err = n.gh.FindOpenIssue(ctx, repo, DriftLabel, title)
			return err
		})
		if err != nil || found == nil {
			return err
		}
		number = found.Number
	}
	comment := n.cfg.Words.DriftClosed(r)
	err := n.retry(ctx, func(ctx context.Context) error { return n.gh.CloseIssue(ctx, repo, number, comment) })
	var ae *ghcomment.APIError
	if errors.As(err, &ae) && (ae.Status == http.StatusNotFound || ae.Status == http.StatusGone) {
		err = nil // deleted or transferred meanwhile: nothing left to close
	}
	if err != nil {
		return err
	}
	st.DriftIssue = 0
	return nil
}

// yieldIssue opens an issue (labelled DriftLabel) with the yield: rules
// serve suggests for run r's project (Run.YieldHints, each made once),
// unless one with its title is still open: a person decides whether the
// other controller should own the field, and the issue stays until they
// close it.
func (n *Notifier) yieldIssue(ctx context.Context, r Run) error {
	if len(r.YieldHints) == 0 {
		return nil
	}
	repo, title := n.cfg.GitHubRepository, n.cfg.Words.YieldTitle(r.Project)
	var found *ghcomment.Issue
	err := n.retry(ctx, func(ctx context.Context) (err error) {
		found, err = n.gh.FindOpenIssue(ctx, repo, DriftLabel, title)
		return err
	})
	if err != nil || found != nil {
		return err
	}
	hints := make([]string, len(r.YieldHints))
	for i, h := range r.YieldHints {
		hints[i] = n.scrub(h)
	}
	return n.retry(ctx, func(ctx context.Context) error {
		_, err := n.gh.CreateIssue(ctx, repo, title, n.cfg.Words.YieldBody(r, hints), []string{DriftLabel})
		return err
	})
}
