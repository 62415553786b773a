package run

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/lint"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/project"
)

// FormatVersion is the version of Report's JSON form (kubeplan plan -o json
// with projects) and of the project files plan --out DIR writes.
const FormatVersion = 1

// Status is how a project's part of the run ended.
type Status string

const (
	// NoChanges: planned, and the cluster already matches.
	NoChanges Status = "no-changes"
	// Changes: planned, and applying would change the cluster.
	Changes Status = "changes"
	// Applied: apply wrote what the plan said (or found it in sync).
	Applied Status = "applied"
	// Failed: lint, the plan or the apply failed; Error says why.
	Failed Status = "failed"
	// Skipped: not run because a project it depends on failed or was
	// skipped, or because the run was stopped; Error says which.
	Skipped Status = "skipped"
)

// ProjectReport is one project's part of a run.
type ProjectReport struct {
	// Project is the project with its settings (name, path, cluster,
	// namespace, ApplySet, dependsOn).
	Project project.Project `json:"project"`
	// Cluster is the name shown for the cluster: the kubeconfig context
	// the project used (the current one when it names none).
	Cluster string `json:"cluster"`
	// Namespace and ApplySet are the ones used, defaults resolved.
	Namespace string `json:"namespace"`
	ApplySet  string `json:"applyset"`
	Status    Status `json:"status"`
	// Error is why the project failed or was skipped (secret-free: the
	// engine's error text).
	Error string `json:"error,omitempty"`
	// Err is the error itself, for callers that tell kinds of failure
	// apart (an *apply.LockedError); not saved.
	Err error `json:"-"`
	// Findings are lint's error findings when lint stopped the project.
	Findings []lint.Finding `json:"findings,omitempty"`
	// Plan is the project's plan (nil when it could not be made).
	Plan *plan.Plan `json:"plan,omitempty"`
	// Result is what apply did (apply only; nil when nothing ran).
	Result *apply.Result `json:"result,omitempty"`
	// Health is the ApplySet's status (status only).
	Health *apply.Status `json:"health,omitempty"`
}

// Report is a whole run: one entry per selected project, in the order the
// projects were given (sorted by path), whatever order they ran in.
type Report struct {
	Version  int             `json:"version"`
	Projects []ProjectReport `json:"projects"`
	// Single is set when the run is one project built from a plain
	// invocation's flags (kubeplan plan -n NS --applyset configmap/x DIR):
	// every view renders it exactly as a single plan (or apply, or
	// status), without a project header or a total, and -o json is the
	// single plan's format.
	Single bool `json:"-"`
}

// Total sums a run.
type Total struct {
	Projects int `json:"projects"`
	// WithChanges counts projects whose plan has changes (or, after
	// apply, that wrote something).
	WithChanges int `json:"withChanges"`
	Failed      int `json:"failed"`
	Skipped     int `json:"skipped"`
	// The plans' counts, added up.
	plan.Summary
}

// Total adds up the report.
func (r *Report) Total() Total {
	t := Total{Projects: len(r.Projects)}
	for _, p := range r.Projects {
		switch p.Status {
		case Failed:
			t.Failed++
		case Skipped:
			t.Skipped++
		}
		if p.Plan != nil {
			s := p.Plan.Summary()
			t.Add += s.Add
			t.Change += s.Change
			t.Replace += s.Replace
			t.Prune += s.Prune
			t.Release += s.Release
			t.Unchanged += s.Unchanged
			t.Drifted += s.Drifted
		}
		if p.Status == Changes || (p.Status == Applied && p.Result.Wrote()) {
			t.WithChanges++
		}
	}
	return t
}

// HasChanges reports whether any project's plan has changes.
func (r *Report) HasChanges() bool {
	for _, p := range r.Projects {
		if p.Plan != nil && p.Plan.HasChanges() {
			return true
		}
	}
	return false
}

// Err is the error of a run: which projects failed, which were skipped
// (their sections say why); nil when none did.
func (r *Report) Err() error {
	var failed, skipped []string
	for _, p := range r.Projects {
		switch p.Status {
		case Failed:
			failed = append(failed, p.Project.Name)
		case Skipped:
			skipped = append(skipped, p.Project.Name)
		}
	}
	if len(failed)+len(skipped) == 0 {
		return nil
	}
	msg := fmt.Sprintf("%d of %d projects failed", len(failed), len(r.Projects))
	if len(failed) > 0 {
		msg += ": " + strings.Join(failed, ", ")
	}
	if len(skipped) > 0 {
		msg += fmt.Sprintf("; %d skipped: %s", len(skipped), strings.Join(skipped, ", "))
	}
	return errors.New(msg)
}

// Failed reports whether any project failed or was skipped.
func (r *Report) Failed() bool {
	for _, p := range r.Projects {
		if p.Status == Failed || p.Status == Skipped {
			return true
		}
	}
	return false
}

// Single is the outcome of a plain invocation's run (r and err as Plan,
// Apply or ReadStatus return them): r, marked Single, or the error of its
// one project (the interrupt's, the cause of ctx, when it never started),
// or err when the run could not start.
func Single(ctx context.Context, r *Report, err error) (*Report, error) {
	if err != nil {
		return nil, err
	}
	r.Single = true
	if err := r.Projects[0].single(ctx); err != nil {
		return nil, err
	}
	return r, nil
}

// single is the error of a plain invocation's one project: its own, or
// the interrupt's when it never started.
func (pr ProjectReport) single(ctx context.Context) error {
	if pr.Status != Skipped {
		return pr.Err
	}
	if err := context.Cause(ctx); err != nil {
		return err
	}
	return errors.New(pr.Error)
}
