package apply

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
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
	// Interval between polls; default 1s.
	Interval time.Duration
	// Progress, when set, is called with the objects still pending when
	// that set changes, and about every 10 s while it does not.
	Progress func(pending []HealthResult)
	// Concurrency bounds the requests made at once; default 8.
	Concurrency int
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

// WaitHealthy polls refs until every one is healthy: Current by kstatus, or,
// for a Job, Complete (kstatus calls a running Job Current). It returns the
// last result of every ref, in input order, and an *UnhealthyError when an
// object Failed (at once), when the timeout passed, or when ctx ended.
func WaitHealthy(ctx context.Context, c *kube.Client, refs []plan.Ref, opts WaitOptions) ([]HealthResult, error) {
	if opts.Interval <= 0 {
		opts.Interval = time.Second
	}
	if opts.Concurrency <= 0 {
		opts.Concurrency = 8
	}
	start := time.Now()
	waitCtx := ctx
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		waitCtx, cancel = context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
	}
	results := make([]HealthResult, len(refs))
	done := make([]bool, len(refs))
	for i, r := range refs {
		results[i] = HealthResult{Ref: r, Status: HealthUnknown, Message: "not checked yet"}
	}
	w := &healthWaiter{c: c}
	var lastPending []plan.Ref
	var lastProgress time.Time
	timer := time.NewTimer(opts.Interval)
	defer timer.Stop()
	for {
		var todo []int
		for i := range refs {
			if !done[i] {
				todo = append(todo, i)
			}
		}
		var g errgroup.Group
		g.SetLimit(opts.Concurrency)
		for j := range todo {
			g.Go(func() error {
				i := todo[j]
				r, ok := w.check(waitCtx, refs[i])
				if !ok { // cut short by the context: keep the last result
					return nil
				}
				results[i] = r
				done[i] = r.Healthy()
				return nil
			})
		}
		_ = g.Wait() // every call returns nil: errors are kept per index

		var failed, pending []HealthResult
		for i, r := range results {
			switch {
			case r.Status == HealthFailed:
				failed = append(failed, r)
			case !done[i]:
				pending = append(pending, r)
			}
		}
		if len(failed) > 0 {
			return results, &UnhealthyError{Results: failed, After: time.Since(start)}
		}
		if len(pending) == 0 {
			return results, nil
		}
		if err := waitCtx.Err(); err != nil {
			return results, healthStopped(ctx, pending, start)
		}
		if opts.Progress != nil {
			var set []plan.Ref
			for _, r := range pending {
				set = append(set, r.Ref)
			}
			if !slices.Equal(set, lastPending) || time.Since(lastProgress) >= healthProgressEvery {
				opts.Progress(pending)
				lastPending, lastProgress = set, time.Now()
			}
		}
		timer.Reset(opts.Interval)
		select {
		case <-waitCtx.Done():
			return results, healthStopped(ctx, pending, start)
		case <-timer.C:
		}
	}
}

// stopped is the error for a wait cut short: by its own timeout or a
// deadline on parent (a timeout), or by parent's cancellation.
func healthStopped(parent context.Context, pending []HealthResult, start time.Time) error {
	e := &UnhealthyError{Results: pending, After: time.Since(start), Err: context.Cause(parent)}
	if e.Err == nil || errors.Is(e.Err, context.DeadlineExceeded) {
		e.Timeout, e.Err = true, context.DeadlineExceeded
	}
	return e
}

// healthWaiter fetches objects and the pods behind workloads.
type healthWaiter struct {
	c *kube.Client
}

var healthPodsGVR = schema.GroupVersionResource{Version: "v1", Resource: "pods"}

// check fetches ref and assesses it. ok is false when ctx ended during the
// requests (the result is then meaningless).
func (w *healthWaiter) check(ctx context.Context, ref plan.Ref) (res HealthResult, ok bool) {
	res = HealthResult{Ref: ref}
	gvr, ns, err := w.locate(ref)
	if err != nil {
		if meta.IsNoMatchError(err) {
			// A CRD just created may not be discovered yet.
			w.c.Mapper.Reset()
		}
		res.Status, res.Message = HealthUnknown, err.Error()
		return res, ctx.Err() == nil
	}
	u, err := w.c.Dynamic.Resource(gvr).Namespace(ns).Get(ctx, ref.Name, metav1.GetOptions{})
	if ctx.Err() != nil {
		return res, false
	}
	switch {
	case apierrors.IsNotFound(err):
		res.Status, res.Message = HealthNotFound, "not found"
		return res, true
	case apierrors.IsForbidden(err) || apierrors.IsUnauthorized(err):
		// Waiting will not help.
		res.Status, res.Message = HealthFailed, "cannot read it: "+err.Error()
		return res, true
	case err != nil:
		res.Status, res.Message = HealthUnknown, err.Error()
		return res, true
	}
	list := func(sel labels.Selector) ([]unstructured.Unstructured, error) {
		l, err := w.c.Dynamic.Resource(healthPodsGVR).Namespace(ns).List(ctx, metav1.ListOptions{LabelSelector: sel.String(), Limit: 200})
		if err != nil {
			return nil, err
		}
		return l.Items, nil
	}
	res = healthAssess(ref, u, list)
	return res, ctx.Err() == nil
}

// locate finds ref's REST resource and namespace (the client's default for a
// namespaced object without one).
func (w *healthWaiter) locate(ref plan.Ref) (schema.GroupVersionResource, string, error) {
	if ref.Resource != "" {
		return schema.GroupVersionResource{Group: ref.Group, Version: ref.Version, Resource: ref.Resource}, ref.Namespace, nil
	}
	m, err := w.c.Mapper.RESTMapping(schema.GroupKind{Group: ref.Group, Kind: ref.Kind}, ref.Version)
	if err != nil {
		return schema.GroupVersionResource{}, "", fmt.Errorf("looking up %s: %w", ref.Kind, err)
	}
	ns := ref.Namespace
	if m.Scope.Name() == meta.RESTScopeNameRoot {
		ns = ""
	} else if ns == "" {
		ns = w.c.Namespace
	}
	return m.Resource, ns, nil
}

// Assess checks every ref once, without waiting: the health `status` shows.
func Assess(ctx context.Context, c *kube.Client, refs []plan.Ref) []HealthResult {
	w := &healthWaiter{c: c}
	out := make([]HealthResult, len(refs))
	var g errgroup.Group
	g.SetLimit(8)
	for i := range refs {
		g.Go(func() error {
			out[i], _ = w.check(ctx, refs[i])
			return nil
		})
	}
	_ = g.Wait() // every call returns nil: errors are kept per index
	return out
}
