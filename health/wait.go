package health

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/kubeplan/kubeplan/internal/healthexpr"
	"github.com/kubeplan/kubeplan/internal/kube"
)

// WaitOptions tune Wait.
type WaitOptions struct {
	// Timeout bounds the whole wait; 0 means only ctx bounds it.
	Timeout time.Duration
	// Interval is how often the wait reports progress and retries what
	// failed (kinds not discovered yet, reads that failed, GETs where
	// listing is forbidden); default 1s. Changes arrive by watch at once.
	Interval time.Duration
	// Progress, when set, is called with the objects still pending when
	// that set changes, and about every 10 s while it does not.
	Progress func(pending []Result)
	// Reporter, when set, replaces Progress: it is also told the phase
	// "waiting" (healthy objects of all) as that count changes and every
	// Interval.
	Reporter Reporter
	// Concurrency is not used any more: the wait reads per resource.
	Concurrency int
	// Selector is a label selector every object carries (the ApplySet's
	// part-of label): it narrows the reads of a resource with several
	// objects in a namespace. "" reads the whole namespace.
	Selector string
	// Written are the objects as written, by ref: with them, a Service
	// that is not a LoadBalancer counts as Current without a read.
	Written map[kube.Ref]map[string]any
	// FailFast fails a workload as soon as its pods show a signal that
	// waiting will not heal (CrashLoopBackOff, an image that cannot be
	// pulled after a back-off, a missing Secret key, OOMKilled with
	// restarts, a failed init container, FailedScheduling for want of
	// resources or a matching node for 30 s; failfast.go), instead of at
	// Timeout. A Job's Failed condition and a Deployment's
	// ProgressDeadlineExceeded fail it at once either way.
	FailFast bool
	// Diagnose, when the wait fails or times out, reads why each failed or
	// pending workload is not healthy (Result.Diagnosis): its pods'
	// causes, Warning events, log tails. A wait that succeeds reads
	// nothing more.
	Diagnose bool
	// Secrets are values masked in a diagnosis (the set's Secret values);
	// the values of the Secrets the pods reference are added, read with
	// SecretValues (plan.SecretValues).
	Secrets      []string
	SecretValues func(obj map[string]any) []string
	// Rules are the health rules in CEL (kubeplan.yaml's health:, over
	// the built-in ones; internal/healthexpr): an object a rule is about
	// is healthy, waited for or failed by its rule instead of kstatus.
	// nil is the built-in rules alone.
	Rules *healthexpr.Set
}

// healthProgressEvery is how often Progress repeats an unchanged pending set.
const healthProgressEvery = 10 * time.Second

// Wait waits until every ref is healthy: Current by kstatus, or, for
// a Job, Complete (kstatus calls a running Job Current). Kinds that are
// Current as soon as they exist (ConfigMap, Secret, RBAC, a ClusterIP
// Service, ...: healthCurrentOnWrite) are not read at all. The others are
// read per resource and namespace, one LIST and then one WATCH, and the
// pods of a namespace are watched the same way once one of its workloads is
// not ready, to say why. It returns the last result of every ref, in input
// order, and an *UnhealthyError when an object Failed (at once), when the
// timeout passed, or when ctx ended.
func Wait(ctx context.Context, c *kube.Client, refs []kube.Ref, opts WaitOptions) ([]Result, error) {
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
	s.rules = opts.Rules
	if opts.FailFast {
		s.failFast = newSignalTracker()
	}
	read := func(g *healthGroup) {
		readers.Go(func() { r.watch(readCtx, g) })
	}
	s.startGroup = read
	s.readPods = func(ns string) { read(&healthGroup{gvr: healthPodsGVR, ns: ns}) }

	results := make([]Result, len(refs))
	done := make([]bool, len(refs))
	var todo []int
	for i, ref := range refs {
		if healthCurrentOnWrite(ref, opts.Written[ref]) {
			results[i], done[i] = Result{Ref: ref, Status: Current}, true
			continue
		}
		todo = append(todo, i)
	}
	s.locate(todo)

	rep := opts.progress()
	if len(refs) == 0 {
		rep = nil
	}
	var lastPending []kube.Ref
	var lastProgress time.Time
	lastDone := -1
	ticker := time.NewTicker(opts.Interval)
	defer ticker.Stop()
	tick := false
	for {
		var failed, pending []Result
		for _, i := range todo {
			if !done[i] {
				results[i] = s.result(i)
				done[i] = results[i].Healthy()
			}
			switch {
			case results[i].Status == Failed:
				failed = append(failed, results[i])
			case !done[i]:
				pending = append(pending, results[i])
			}
		}
		if len(failed) > 0 {
			err := &UnhealthyError{Results: failed, After: time.Since(start)}
			if opts.Diagnose {
				healthDiagnose(ctx, c, r, s, results, err, opts)
			}
			return results, err
		}
		if len(pending) == 0 {
			if rep != nil {
				rep.Phase(PhaseWaiting, len(refs), len(refs))
			}
			return results, nil
		}
		if waitCtx.Err() != nil {
			err := healthStopped(ctx, pending, start)
			if opts.Diagnose && err.Timeout {
				healthDiagnose(ctx, c, r, s, results, err, opts)
			}
			return results, err
		}
		if rep != nil && (healthAnswered(pending) || time.Since(start) >= 2*time.Second) {
			set := make([]kube.Ref, len(pending))
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
func healthAnswered(pending []Result) bool {
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

// progress is the Reporter to report to: Reporter, else Progress.
func (o WaitOptions) progress() Reporter {
	return ReporterOf(o.Reporter, o.Progress)
}

// healthStopped is the error for a wait cut short: by its own timeout or a
// deadline on parent (a timeout), or by parent's cancellation.
func healthStopped(parent context.Context, pending []Result, start time.Time) *UnhealthyError {
	e := &UnhealthyError{Results: pending, After: time.Since(start), Err: context.Cause(parent)}
	if e.Err == nil || errors.Is(e.Err, context.DeadlineExceeded) {
		e.Timeout, e.Err = true, context.DeadlineExceeded
	}
	return e
}
