package notify

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

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
	s := ghcomment.Status{State: "success", Context: "kubeplan/" + r.Project}
	if r.Err != nil {
		s.State = "failure"
		first, _, _ := strings.Cut(n.errorText(r.Err), "\n")
		s.Description = "kubeplan could not apply: " + first
	} else {
		s.Description = fmt.Sprintf("applied: %d applied, %d pruned, %d unchanged", r.Applied, r.Pruned, r.Unchanged)
		if r.Drift {
			s.Description += ", drift taken back"
		}
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

// driftTitle is the title of project's drift issue, how it is found again.
func driftTitle(project string) string {
	return "kubeplan: drift repair of project " + project + " is failing"
}

// driftIssue opens an issue when a scheduled run fails (unless one is open
// for the project), and closes it with a comment when the project runs
// successfully again.
func (n *Notifier) driftIssue(ctx context.Context, r Run, st *ProjectState) error {
	repo, title := n.cfg.GitHubRepository, driftTitle(r.Project)
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
				created, err = n.gh.CreateIssue(ctx, repo, title, n.driftBody(r, st.FailingSince), []string{DriftLabel})
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
	comment := fmt.Sprintf("Project `%s` recovered: revision `%s` applied at %s (%d applied, %d pruned, %d unchanged). Closing.",
		r.Project, short(r.Revision), r.End.UTC().Format(time.RFC3339), r.Applied, r.Pruned, r.Unchanged)
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

// driftBody is the drift issue's text.
func (n *Notifier) driftBody(r Run, since time.Time) string {
	var b strings.Builder
	fmt.Fprintf(&b, "kubeplan serve could not repair drift in project `%s`: its scheduled run failed.\n\n", r.Project)
	b.WriteString("| | |\n|---|---|\n")
	for _, row := range [][2]string{{"Revision", r.Revision}, {"Cluster", r.Cluster}, {"Namespace", r.Namespace},
		{"ApplySet", r.ApplySet}, {"Failing since", since.UTC().Format(time.RFC3339)}} {
		if row[1] != "" {
			fmt.Fprintf(&b, "| %s | `%s` |\n", row[0], row[1])
		}
	}
	msg := strings.ReplaceAll(n.errorText(r.Err), "```", "'''")
	fmt.Fprintf(&b, "\n```\n%s\n```\n\nThis issue is closed when the project runs successfully again.\n", msg)
	return b.String()
}
