package run

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

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

// checkApprovals refuses an approval (--approve) that names no guard
// rule of any of the projects: a mistyped rule must not leave the user
// believing a change was approved.
func checkApprovals(ps []project.Project, as []guard.Approval) error {
	for _, a := range as {
		known := false
		for _, p := range ps {
			if p.Guards != nil && p.Guards.Has(a.Rule) {
				known = true
				break
			}
		}
		if !known && len(ps) > 0 {
			return fmt.Errorf("--approve %s: no guard rule of that name (the built-in ones are %s; kubeplan.yaml's guards: has the others): nothing was written", a.Rule, strings.Join(builtinNames(), ", "))
		}
	}
	return nil
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

// builtinNames are the built-in rules' names.
func builtinNames() []string {
	var out []string
	for _, r := range guard.BuiltinRules() {
		out = append(out, r.Name)
	}
	return out
}
