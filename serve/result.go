package serve

import (
	"time"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/run"
)

// RunResult is one project's run: what OnRun, the metrics and the Events
// are made of.
type RunResult struct {
	Project   string
	Revision  string // the git commit
	Subject   string // its subject line
	Namespace string
	// ApplySet is the parent, "configmap/NAME"; Cluster the cluster's
	// name ("" for the pod's own).
	ApplySet string
	Cluster  string
	// Scheduled is true for a run its interval started, false for a run
	// again after waiting for another replica's lock.
	Scheduled bool
	// Err is why the run failed; nil on success.
	Err error
	// Objects applied (created, configured or replaced), pruned and found
	// unchanged, and the unchanged ones whose live state had drifted (the
	// plan repaired them).
	Applied, Pruned, Unchanged, Drifted int
	// Findings are lint's errors when lint stopped the run, as
	// "file:line:col: message".
	Findings   []string
	Start, End time.Time
	// Pending counts the require-approval verdicts no approval covers
	// (serve never approves), whether the run was refused for them or
	// held back the prunes they are about (Withheld counts those);
	// WindowClosed says why the change windows kept the run from
	// writing ("" when they did not).
	Pending, Withheld int
	WindowClosed      string
	// Suspended says who suspended the project and why (kubeplan
	// suspend): the run wrote nothing, and is not a failure (suspend.go).
	Suspended string
	// YieldHints are the fields this run took back for the YieldRuns-th
	// time in a row from the same other manager, with the yield: rule
	// that would leave them to it; each is told once (yield.go).
	YieldHints []YieldHint
}

// Wrote reports whether the run changed the cluster.
func (r RunResult) Wrote() bool { return r.Applied+r.Pruned > 0 }

// Drift reports whether the run found the cluster different from git.
func (r RunResult) Drift() bool { return r.Drifted > 0 || r.Wrote() }

// resultOf makes a RunResult from a project's report.
func resultOf(pr run.ProjectReport, rev, subject string, scheduled bool, start, end time.Time) RunResult {
	r := RunResult{Project: pr.Project.Name, Revision: rev, Subject: subject, Namespace: pr.Namespace, ApplySet: pr.ApplySet,
		Cluster: pr.Cluster, Scheduled: scheduled, Err: pr.Err, Start: start, End: end}
	if pr.Status == run.Failed && r.Err == nil {
		r.Err = errorString(pr.Error)
	}
	for _, f := range pr.Findings {
		r.Findings = append(r.Findings, f.File+":"+itoa(f.Line)+":"+itoa(f.Col)+": "+f.Message)
	}
	if pr.Plan != nil {
		r.Drifted = pr.Plan.Summary().Drifted
	}
	guarded(&r, pr)
	suspendedRun(&r)
	if pr.Result == nil {
		return r
	}
	for _, o := range pr.Result.Objects {
		switch o.Outcome {
		case apply.Created, apply.Configured, apply.Replaced:
			r.Applied++
		case apply.Pruned:
			r.Pruned++
		case apply.Unchanged:
			r.Unchanged++
		case apply.Withheld:
			r.Withheld++
		}
	}
	return r
}

type errorString string

func (e errorString) Error() string { return string(e) }
