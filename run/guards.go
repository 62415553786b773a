package run

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/kubeplan/kubeplan/internal/guard"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/project"
)

// Approver finds approvals, beyond the command line's, for the pending
// require-approval verdicts of project p under cfg (guard.Approvals):
// GitHub reviews and labels (internal/ghreview).
type Approver func(ctx context.Context, p project.Project, pending []guard.Verdict, cfg guard.Approvals) ([]guard.Approval, error)

// guardOptions are the guard settings of p's plan: its rules, change
// windows and paths; cluster is the cluster's name when known.
func (o *Options) guardOptions(p project.Project, cluster string) plan.GuardOptions {
	if cluster == "" {
		cluster = p.ClusterName
	}
	o2 := plan.GuardOptions{Rules: p.Guards, Project: p.Name, Cluster: cluster, Files: []string{p.Path}, Windows: p.Windows}
	if w := o.Workspace; w != nil && w.Checkout() != "" {
		o2.Checkout = w.Checkout()
		o2.Files = []string{o2.RepoPath(filepath.Join(w.Root(), p.Path))}
	}
	return o2
}

// approvals are the approvals that count for pr's plan: the command
// line's, then those the Approver finds when the plan has pending
// require-approval verdicts. They are set on the plan's verdicts
// (guard.Approve), so that every view says who approved what.
func (o *Options) approvals(ctx context.Context, pr *ProjectReport) ([]guard.Approval, error) {
	if pr.Plan == nil || len(pr.Plan.Guards) == 0 {
		return o.Approvals, nil
	}
	out := append([]guard.Approval(nil), o.Approvals...)
	pending := guard.Approve(pr.Plan.Guards, out)
	if len(pending) == 0 || o.Approver == nil || pr.Project.Guards == nil {
		return out, nil
	}
	if cfg := pr.Project.Guards.Approvals(); !cfg.CodeOwners && len(cfg.Labels) == 0 {
		return out, nil // kubeplan.yaml counts no approval on GitHub
	}
	found, err := o.Approver(ctx, pr.Project, pending, pr.Project.Guards.Approvals())
	if err != nil {
		return out, fmt.Errorf("looking for approvals of the guard rules: %w", err)
	}
	out = append(out, found...)
	guard.Approve(pr.Plan.Guards, out)
	return out, nil
}
