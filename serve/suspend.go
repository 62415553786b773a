package serve

import (
	"context"
	"errors"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/run"
)

// suspendedRun marks a run refused because its project is suspended
// (kubeplan suspend): it wrote nothing, and it is no failure. The run's
// outcome is "suspended" (r.Suspended says by whom and why); no Event,
// no notification, and the metrics only set kubeplan_suspended.
func suspendedRun(r *RunResult) {
	var se *apply.SuspendedError
	if errors.As(r.Err, &se) {
		r.Err, r.Suspended = nil, render.SuspensionText(&se.Suspension)
		if r.Suspended == "" {
			r.Suspended = "suspended"
		}
	}
}

// Outcome is the run's outcome in a word: suspended, failed or ok.
func (r RunResult) Outcome() string {
	switch {
	case r.Suspended != "":
		return "suspended"
	case r.Err != nil:
		return "failed"
	}
	return "ok"
}

// newSuspendedGauge registers kubeplan_suspended in reg.
func newSuspendedGauge(reg *prometheus.Registry) *prometheus.GaugeVec {
	g := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "kubeplan_suspended",
		Help: "1 while the project is suspended (kubeplan suspend): serve skips it and writes nothing; else 0."}, []string{"project"})
	reg.MustRegister(g)
	return g
}

// setSuspended sets kubeplan_suspended for project p as a poll of the
// parents found it, before any run.
func (m *metrics) setSuspended(p string, on bool) {
	v := 0.0
	if on {
		v = 1
	}
	m.suspended.WithLabelValues(p).Set(v)
}

// observeSuspended sets kubeplan_suspended for r's project and reports
// whether r was suspended: such a run is neither a success nor a
// failure, and the other metrics keep what the last real run said.
func (m *metrics) observeSuspended(r RunResult) bool {
	m.setSuspended(r.Project, r.Suspended != "")
	return r.Suspended != ""
}

// suspendedSeen is a suspension a poll of the parents found.
type suspendedSeen struct {
	s      plan.Suspension
	parent applyset.Parent
	at     time.Time
}

// noteSuspension records what the poll found of p's suspension (value is
// the parent's annotation) and reports a project resumed since the last
// poll: serve runs it at once, whatever its interval.
func (q *syncRequests) noteSuspension(p string, parent applyset.Parent, value string, now time.Time) (resumed bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.suspended == nil {
		q.suspended = map[string]suspendedSeen{}
	}
	_, was := q.suspended[p]
	s := plan.ParseSuspension(value)
	if s == nil {
		delete(q.suspended, p)
		return was
	}
	q.suspended[p] = suspendedSeen{s: *s, parent: parent, at: now}
	return false
}

// suspendedNow is p's suspension as a recent poll found it (within two
// polls); nil when it was not suspended, or not seen lately.
func (q *syncRequests) suspendedNow(p string, now time.Time) *suspendedSeen {
	q.mu.Lock()
	defer q.mu.Unlock()
	if seen, ok := q.suspended[p]; ok && now.Sub(seen.at) < 2*syncPollEvery {
		return &seen
	}
	return nil
}

// skipSuspended reports the due projects a recent poll found suspended
// as skipped runs (outcome suspended), without planning them, and
// returns the others. The engine refuses a suspension the poll has not
// seen yet (apply.CheckSuspended); a project resumed since is run at
// once by the next poll.
func (s *server) skipSuspended(ctx context.Context, co checkout, due []project.Project, start time.Time) []project.Project {
	if ctx.Err() != nil {
		return due // stopping: the round starts nothing
	}
	out := due[:0:0]
	for _, p := range due {
		seen := s.syncs.suspendedNow(p.Name, time.Now())
		if seen == nil {
			out = append(out, p)
			continue
		}
		err := &apply.SuspendedError{Project: p.Name, Set: seen.parent.String(), Namespace: seen.parent.Namespace, Suspension: seen.s}
		s.scheduleNext(p, start)
		s.report(context.WithoutCancel(ctx), run.ProjectReport{Project: p, Cluster: p.Cluster(), Namespace: seen.parent.Namespace,
			ApplySet: seen.parent.String(), Status: run.Failed, Error: err.Error(), Err: err}, co.rev, true, start)
	}
	return out
}
