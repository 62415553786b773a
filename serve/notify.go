package serve

import (
	"context"
	"fmt"
	"io"
	"sync"

	"github.com/kubeplan/kubeplan/apply"
	kphealth "github.com/kubeplan/kubeplan/health"
	"github.com/kubeplan/kubeplan/notify"
	"github.com/kubeplan/kubeplan/render"
)

// Observer is what a Notifier needs of serve: notify.Notifier.Observe.
type Observer interface {
	Observe(ctx context.Context, r notify.Run) error
}

// Notify returns an OnRun that hands every run to n (failures and
// recoveries become notifications there, never every run). A run is a
// scheduled drift repair (notify.Run.Scheduled, which opens the GitHub
// drift issue when it fails) when its project's last run was at the same
// revision and succeeded: nothing new came from git, and git's state was
// applied, so the run only takes the cluster back. A broken commit that
// keeps failing is not drift. A notification that cannot be sent is a line on log; the
// reconciling goes on.
func Notify(n Observer, log io.Writer) func(ctx context.Context, r RunResult) {
	var mu sync.Mutex
	type lastRun struct {
		revision string
		ok       bool
	}
	last := map[string]lastRun{} // by project
	return func(ctx context.Context, r RunResult) {
		if r.Suspended != "" {
			return // a suspended project's skipped run is no news
		}
		mu.Lock()
		prev, seen := last[r.Project]
		last[r.Project] = lastRun{r.Revision, r.Err == nil}
		mu.Unlock()
		run := notify.Run{Project: r.Project, Revision: r.Revision, Cluster: r.Cluster, Namespace: r.Namespace,
			ApplySet: r.ApplySet, Scheduled: seen && prev.ok && prev.revision == r.Revision, Err: stageText(r.Err), Failures: failuresOf(r.Err),
			Stage:   apply.FailedStage(r.Err),
			Applied: r.Applied, Pruned: r.Pruned, Unchanged: r.Unchanged, Drift: r.Drift(), Start: r.Start, End: r.End}
		for _, h := range r.YieldHints {
			run.YieldHints = append(run.YieldHints, h.Note)
		}
		if err := n.Observe(ctx, run); err != nil && log != nil {
			fmt.Fprintf(log, "kubeplan serve: %s: notification: %v\n", r.Project, err)
		}
	}
}

// SourceProject is the project name of the notifications about serve's
// git source (NotifySource), in parentheses to stand apart from the
// projects' names.
const SourceProject = "(git source)"

// NotifySource returns an OnSource that hands the source's failure and
// recovery to n, as the runs of the project SourceProject: one "failing"
// when it begins, one "recovered" when it ends.
func NotifySource(n Observer, log io.Writer) func(ctx context.Context, s SourceStatus) {
	return func(ctx context.Context, s SourceStatus) {
		run := notify.Run{Project: SourceProject, Err: s.Err, Start: s.Since, End: s.End}
		if err := n.Observe(ctx, run); err != nil && log != nil {
			fmt.Fprintf(log, "kubeplan serve: the git source: notification: %v\n", err)
		}
	}
}

// failuresOf is what a notification says of each workload a failed health
// wait diagnosed (kphealth.Diagnosed): its reason, source, one line
// (render.FailureLine) and the stage of an ordered run it failed in; nil
// for other errors.
func failuresOf(err error) []notify.Failure {
	var out []notify.Failure
	stage := apply.FailedStage(err)
	for _, r := range kphealth.Diagnosed(err) {
		out = append(out, notify.Failure{Workload: r.Ref.String(), Namespace: r.Ref.Namespace, Reason: kphealth.FailureReason(r),
			Source: r.Diagnosis.Source, Summary: render.FailureLine(r), Stage: stage})
	}
	return out
}

// stageText is err for the notifications: a failed ordered run's error
// reads as apply.StageText says it ("stage wave 1: ..."), so that the
// stage leads and is said once; other errors are err.
func stageText(err error) error {
	if apply.FailedStage(err) == "" {
		return err
	}
	return stageError{err}
}

// stageError is a stage's failure whose text is apply.StageText's.
type stageError struct{ err error }

func (e stageError) Error() string { return apply.StageText(e.err) }
func (e stageError) Unwrap() error { return e.err }
