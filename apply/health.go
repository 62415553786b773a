package apply

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"
	"sigs.k8s.io/cli-utils/pkg/kstatus/status"

	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/plan"
)

// Health statuses. All but HealthComplete are kstatus's.
const (
	HealthCurrent     = string(status.CurrentStatus)
	HealthInProgress  = string(status.InProgressStatus)
	HealthFailed      = string(status.FailedStatus)
	HealthTerminating = string(status.TerminatingStatus)
	HealthNotFound    = string(status.NotFoundStatus)
	HealthUnknown     = string(status.UnknownStatus)
	// HealthComplete is a Job whose Complete condition is True.
	HealthComplete = "Complete"
)

// HealthResult is the health of one object.
type HealthResult struct {
	Ref plan.Ref `json:"ref"`
	// Status is the kstatus status (Current, InProgress, Failed,
	// Terminating, NotFound, Unknown), or Complete for a finished Job.
	Status string `json:"status"`
	// Message says why, e.g. "1/3 available: ImagePullBackOff".
	Message string `json:"message,omitempty"`
}

// Healthy reports whether the object is done: Current, or Complete for a Job.
func (r HealthResult) Healthy() bool {
	return r.Status == HealthCurrent || r.Status == HealthComplete
}

// WaitOptions tune WaitHealthy.
type WaitOptions struct {
	// Timeout bounds the whole wait; 0 means only ctx bounds it.
	Timeout time.Duration
	// Interval is how often the wait reports progress and retries what
	// failed (kinds not discovered yet, reads that failed, GETs where
	// listing is forbidden); default 1s. Changes arrive by watch at once.
	Interval time.Duration
	// Progress, when set, is called with the objects still pending when
	// that set changes, and about every 10 s while it does not.
	Progress func(pending []HealthResult)
	// Reporter, when set, replaces Progress: it is also told the phase
	// "waiting" (healthy objects of all) as that count changes and every
	// Interval.
	Reporter Progress
	// Concurrency is not used any more: the wait reads per resource.
	Concurrency int
	// Selector is a label selector every object carries (the ApplySet's
	// part-of label): it narrows the reads of a resource with several
	// objects in a namespace. "" reads the whole namespace.
	Selector string
	// Written are the objects as written, by ref: with them, a Service
	// that is not a LoadBalancer counts as Current without a read.
	Written map[plan.Ref]map[string]any
}

// healthProgressEvery is how often Progress repeats an unchanged pending set.
const healthProgressEvery = 10 * time.Second

// UnhealthyError is WaitHealthy's failure: the objects that are not healthy,
// one line each.
type UnhealthyError struct {
	// Results are the objects that failed (when the wait stopped because
	// of a failure) or that were still pending (timeout, cancellation),
	// in input order.
	Results []HealthResult
	// Timeout is true when the wait timed out (WaitOptions.Timeout or a
	// deadline on ctx).
	Timeout bool
	// After is how long the wait lasted.
	After time.Duration
	// Err is the context's error when the wait was cut short (Unwrap
	// returns it), nil when objects failed.
	Err error
}

// Lines returns one "ref: message" line per object.
func (e *UnhealthyError) Lines() []string {
	lines := make([]string, 0, len(e.Results))
	for _, r := range e.Results {
		msg := r.Message
		if msg == "" {
			msg = r.Status
		}
		lines = append(lines, r.Ref.String()+": "+msg)
	}
	return lines
}

func (e *UnhealthyError) Error() string {
	var head string
	switch {
	case e.Timeout:
		head = fmt.Sprintf("timed out after %s waiting for %s to become healthy:", e.After.Round(time.Second), healthCount(len(e.Results)))
	case e.Err != nil:
		head = fmt.Sprintf("stopped waiting for %s to become healthy: %v:", healthCount(len(e.Results)), e.Err)
	default:
		head = fmt.Sprintf("%s failed:", healthCount(len(e.Results)))
	}
	return strings.Join(append([]string{head}, e.Lines()...), "\n")
}

func (e *UnhealthyError) Unwrap() error { return e.Err }

func healthCount(n int) string {
	if n == 1 {
		return "1 object"
	}
	return fmt.Sprintf("%d objects", n)
}

// WaitHealthy waits until every ref is healthy: Current by kstatus, or, for
// a Job, Complete (kstatus calls a running Job Current). Kinds that are
// Current as soon as they exist (ConfigMap, Secret, RBAC, a ClusterIP
// Service, ...: healthCurrentOnWrite) are not read at all. The others are
// read per resource and namespace, one LIST and then one WATCH, and the
// pods of a namespace are watched the same way once one of its workloads is
// not ready, to say why. It returns the last result of every ref, in input
// order, and an *UnhealthyError when an object Failed (at once), when the
// timeout passed, or when ctx ended.
func WaitHealthy(ctx context.Context, c *kube.Client, refs []plan.Ref, opts WaitOptions) ([]HealthResult, error) {
	if opts.Interval <= 0 {
		opts.Interval = time.Second
	}
	start := time.Now()
	waitCtx := ctx
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		waitCtx, cancel = context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
	}
	readCtx, stopReading := context.WithCancel(waitCtx)
	var readers sync.WaitGroup
	defer func() { stopReading(); readers.Wait() }()
	r := &healthReader{c: c, interval: opts.Interval, events: make(chan healthEvent, 64)}
	s := newHealthState(c, refs, opts.Selector)
	read := func(g *healthGroup) {
		readers.Go(func() { r.watch(readCtx, g) })
	}
	s.startGroup = read
	s.readPods = func(ns string) { read(&healthGroup{gvr: healthPodsGVR, ns: ns}) }

	results := make([]HealthResult, len(refs))
	done := make([]bool, len(refs))
	var todo []int
	for i, ref := range refs {
		if healthCurrentOnWrite(ref, opts.Written[ref]) {
			results[i], done[i] = HealthResult{Ref: ref, Status: HealthCurrent}, true
			continue
		}
		todo = append(todo, i)
	}
	s.locate(todo)

	rep := opts.progress()
	if len(refs) == 0 {
		rep = nil
	}
	var lastPending []plan.Ref
	var lastProgress time.Time
	lastDone := -1
	ticker := time.NewTicker(opts.Interval)
	defer ticker.Stop()
	tick := false
	for {
		var failed, pending []HealthResult
		for _, i := range todo {
			if !done[i] {
				results[i] = s.result(i)
				done[i] = results[i].Healthy()
			}
			switch {
			case results[i].Status == HealthFailed:
				failed = append(failed, results[i])
			case !done[i]:
				pending = append(pending, results[i])
			}
		}
		if len(failed) > 0 {
			return results, &UnhealthyError{Results: failed, After: time.Since(start)}
		}
		if len(pending) == 0 {
			if rep != nil {
				rep.Phase(PhaseWaiting, len(refs), len(refs))
			}
			return results, nil
		}
		if waitCtx.Err() != nil {
			return results, healthStopped(ctx, pending, start)
		}
		if rep != nil && (healthAnswered(pending) || time.Since(start) >= 2*time.Second) {
			set := make([]plan.Ref, len(pending))
			for j, p := range pending {
				set[j] = p.Ref
			}
			if !slices.Equal(set, lastPending) || time.Since(lastProgress) >= healthProgressEvery {
				rep.Pending(pending)
				lastPending, lastProgress = set, time.Now()
			}
		}
		if n := len(refs) - len(pending); rep != nil && (n != lastDone || tick) {
			rep.Phase(PhaseWaiting, n, len(refs))
			lastDone = n
		}
		tick = false
		select {
		case <-waitCtx.Done():
		case ev := <-r.events:
			s.apply(ev)
			healthDrain(r.events, s)
		case <-ticker.C:
			tick = true
			s.locate(todo) // kinds not known yet: a CRD just created
		}
	}
}

// healthAnswered reports whether every pending object has been read: the
// pending set is worth reporting.
func healthAnswered(pending []HealthResult) bool {
	for _, p := range pending {
		if p.Message == healthNoAnswer {
			return false
		}
	}
	return true
}

// healthDrain applies the events already waiting.
func healthDrain(events <-chan healthEvent, s *healthState) {
	for {
		select {
		case ev := <-events:
			s.apply(ev)
		default:
			return
		}
	}
}

// progress is the Progress to report to: Reporter, else Progress.
func (o WaitOptions) progress() Progress {
	return Options{Reporter: o.Reporter, Progress: o.Progress}.progress()
}

// healthStopped is the error for a wait cut short: by its own timeout or a
// deadline on parent (a timeout), or by parent's cancellation.
func healthStopped(parent context.Context, pending []HealthResult, start time.Time) error {
	e := &UnhealthyError{Results: pending, After: time.Since(start), Err: context.Cause(parent)}
	if e.Err == nil || errors.Is(e.Err, context.DeadlineExceeded) {
		e.Timeout, e.Err = true, context.DeadlineExceeded
	}
	return e
}

// Assess checks every ref once, without waiting: the health `status` shows.
// It reads one LIST per resource and namespace (a GET per object where
// listing is forbidden), and the pods of a namespace once when one of its
// workloads is not ready.
func Assess(ctx context.Context, c *kube.Client, refs []plan.Ref) []HealthResult {
	r := &healthReader{c: c}
	s := newHealthState(c, refs, "")
	var groups []*healthGroup
	s.startGroup = func(g *healthGroup) { groups = append(groups, g) }
	s.readPods = func(ns string) {
		for _, ev := range r.once(ctx, &healthGroup{gvr: healthPodsGVR, ns: ns}) {
			s.apply(ev)
		}
	}
	all := make([]int, len(refs))
	for i := range refs {
		all[i] = i
	}
	s.locate(all)
	read := make([][]healthEvent, len(groups))
	var g errgroup.Group
	g.SetLimit(8)
	for i := range groups {
		g.Go(func() error {
			read[i] = r.once(ctx, groups[i])
			return nil
		})
	}
	_ = g.Wait() // every call returns nil: errors are kept per object
	for _, evs := range read {
		for _, ev := range evs {
			s.apply(ev)
		}
	}
	out := make([]HealthResult, len(refs))
	for i := range refs {
		out[i] = s.result(i)
	}
	return out
}
