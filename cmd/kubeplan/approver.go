package main

import (
	"context"
	"fmt"

	"github.com/kubeplan/kubeplan/internal/ghreview"
	"github.com/kubeplan/kubeplan/internal/guard"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/run"
)

// approver is the run's Approver in GitHub Actions: the approving
// reviews of code owners and the labels of the pull request (the merged
// one on a push), as kubeplan.yaml's guards.approvals says; nil outside
// Actions or without a token. Why a review did not count is written to
// stderr, for the job's log.
func (s streams) approver(token string) run.Approver {
	a := ghreview.FromEnv(s.env(), token, kubeplanVersion())
	if a == nil {
		return nil
	}
	return func(ctx context.Context, p project.Project, pending []guard.Verdict, cfg guard.Approvals) ([]guard.Approval, error) {
		f, err := a.Find(ctx, pending, cfg)
		for _, n := range f.Notes {
			fmt.Fprintf(s.err, "kubeplan: %s: approvals on GitHub: %s\n", p.Name, n)
		}
		return f.Approvals, err
	}
}
