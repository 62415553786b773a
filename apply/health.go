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
	"k8s.io/apimachinery/pkg/runtime"
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

// healthPodLister lists the pods in the object's namespace matching a selector.
type healthPodLister func(labels.Selector) ([]unstructured.Unstructured, error)

// healthAssess computes the health of live object u, listing its pods (through
// list, only when it is not healthy) to say why.
func healthAssess(ref plan.Ref, u *unstructured.Unstructured, list healthPodLister) HealthResult {
	res := HealthResult{Ref: ref}
	ks, err := status.Compute(u)
	if err != nil {
		res.Status, res.Message = HealthUnknown, err.Error()
		return res
	}
	res.Status, res.Message = string(ks.Status), ks.Message
	obj := u.Object
	gk := u.GroupVersionKind().GroupKind()
	if gk.Empty() {
		gk = schema.GroupKind{Group: ref.Group, Kind: ref.Kind}
	}
	if ks.Status == status.TerminatingStatus {
		return res
	}

	switch gk {
	case schema.GroupKind{Group: "batch", Kind: "Job"}:
		return healthAssessJob(res, u, list)
	case schema.GroupKind{Kind: "Pod"}:
		if ks.Status != status.CurrentStatus {
			if why := healthPodReason([]unstructured.Unstructured{*u}); why != "" {
				res.Message = why
			}
		} else if healthString(obj, "status", "phase") == "Failed" {
			res.Status, res.Message = HealthFailed, healthJoin("pod failed", healthPodReason([]unstructured.Unstructured{*u}))
		}
		return res
	}

	var have, want int64
	var verb string
	switch gk {
	case schema.GroupKind{Group: "apps", Kind: "Deployment"}:
		have, want, verb = healthInt(obj, 0, "status", "availableReplicas"), healthInt(obj, 1, "spec", "replicas"), "available"
	case schema.GroupKind{Group: "apps", Kind: "ReplicaSet"}:
		have, want, verb = healthInt(obj, 0, "status", "availableReplicas"), healthInt(obj, 1, "spec", "replicas"), "available"
	case schema.GroupKind{Group: "apps", Kind: "StatefulSet"}:
		have, want, verb = healthInt(obj, 0, "status", "readyReplicas"), healthInt(obj, 1, "spec", "replicas"), "ready"
	case schema.GroupKind{Group: "apps", Kind: "DaemonSet"}:
		have, want, verb = healthInt(obj, 0, "status", "numberReady"), healthInt(obj, 0, "status", "desiredNumberScheduled"), "ready"
	default:
		return res
	}
	// kstatus skips the generation check when status.observedGeneration is
	// missing; a workload the controller has not seen yet is not Current.
	if gen := u.GetGeneration(); ks.Status == status.CurrentStatus && gen > 0 && healthInt(obj, 0, "status", "observedGeneration") < gen {
		res.Status = HealthInProgress
		res.Message = fmt.Sprintf("%s generation %d not observed yet", u.GetKind(), gen)
	}
	if res.Status == HealthCurrent {
		return res
	}
	why := ""
	if list != nil {
		why = healthWorkloadReason(u, list)
	}
	if why == "" {
		if c, ok := healthFindCondition(u, "ReplicaFailure"); ok && c.status == "True" {
			why = healthJoin(c.reason, c.message)
		}
	}
	if why == "" {
		why = res.Message
	}
	res.Message = healthJoin(fmt.Sprintf("%d/%d %s", have, want, verb), why)
	return res
}

// healthAssessJob: a Job is done when its Complete condition is True, failed when
// its Failed condition is; kstatus's Current for a running Job is not enough
// (kubernetes-sigs/cli-utils#329).
func healthAssessJob(res HealthResult, u *unstructured.Unstructured, list healthPodLister) HealthResult {
	obj := u.Object
	completions := healthInt(obj, 1, "spec", "completions")
	progress := fmt.Sprintf("%d/%d succeeded", healthInt(obj, 0, "status", "succeeded"), completions)
	if c, ok := healthFindCondition(u, "Failed"); ok && c.status == "True" {
		res.Status, res.Message = HealthFailed, healthJoin(c.reason, c.message)
		if res.Message == "" {
			res.Message = "job failed"
		}
		return res
	}
	if c, ok := healthFindCondition(u, "Complete"); ok && c.status == "True" {
		res.Status, res.Message = HealthComplete, progress
		return res
	}
	if res.Status == HealthCurrent {
		res.Status = HealthInProgress
	}
	why := ""
	if c, ok := healthFindCondition(u, "Suspended"); ok && c.status == "True" {
		why = "suspended"
	} else if list != nil {
		why = healthWorkloadReason(u, list)
	}
	res.Message = healthJoin(progress, why)
	return res
}

// healthWorkloadReason lists the pods selected by u's spec.selector and returns
// why they are not running ("" when it finds nothing wrong).
func healthWorkloadReason(u *unstructured.Unstructured, list healthPodLister) string {
	raw, ok, _ := unstructured.NestedMap(u.Object, "spec", "selector")
	if !ok {
		return ""
	}
	var ls metav1.LabelSelector
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(raw, &ls); err != nil {
		return ""
	}
	sel, err := metav1.LabelSelectorAsSelector(&ls)
	if err != nil || sel.Empty() {
		return ""
	}
	pods, err := list(sel)
	if err != nil {
		return ""
	}
	return healthPodReason(pods)
}

// healthBenignWaiting are waiting reasons of containers on their way up.
var healthBenignWaiting = map[string]bool{"": true, "ContainerCreating": true, "PodInitializing": true}

// healthPodReason returns the first reason a container of pods is not running:
// a waiting reason such as ImagePullBackOff, CrashLoopBackOff or
// ErrImagePull, a failed termination, or Unschedulable. Reasons of containers
// that are merely starting (ContainerCreating) come only when there is no
// other.
func healthPodReason(pods []unstructured.Unstructured) string {
	var benign string
	for _, p := range pods {
		if p.GetDeletionTimestamp() != nil {
			continue
		}
		obj := p.Object
		if c, ok := healthFindCondition(&p, "PodScheduled"); ok && c.status == "False" && c.reason == "Unschedulable" {
			return "Unschedulable"
		}
		if r := healthString(obj, "status", "reason"); r != "" && healthString(obj, "status", "phase") == "Failed" {
			return r
		}
		for _, field := range []string{"initContainerStatuses", "containerStatuses"} {
			statuses, _, _ := unstructured.NestedSlice(obj, "status", field)
			for _, s := range statuses {
				cs, _ := s.(map[string]any)
				if cs == nil {
					continue
				}
				if reason, ok, _ := unstructured.NestedString(cs, "state", "waiting", "reason"); ok {
					if !healthBenignWaiting[reason] {
						return reason
					}
					if benign == "" {
						benign = reason
					}
					continue
				}
				if code, ok, _ := unstructured.NestedInt64(cs, "state", "terminated", "exitCode"); ok && code != 0 {
					if reason, _, _ := unstructured.NestedString(cs, "state", "terminated", "reason"); reason != "" {
						return reason
					}
					return fmt.Sprintf("exit code %d", code)
				}
			}
		}
	}
	return benign
}

type healthCondition struct{ status, reason, message string }

func healthFindCondition(u *unstructured.Unstructured, typ string) (healthCondition, bool) {
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for _, c := range conds {
		m, _ := c.(map[string]any)
		if m == nil || m["type"] != typ {
			continue
		}
		s, _ := m["status"].(string)
		r, _ := m["reason"].(string)
		msg, _ := m["message"].(string)
		return healthCondition{s, r, msg}, true
	}
	return healthCondition{}, false
}

// num reads an integer field, def when it is missing.
func healthInt(obj map[string]any, def int64, path ...string) int64 {
	v, ok, _ := unstructured.NestedFieldNoCopy(obj, path...)
	if !ok {
		return def
	}
	switch n := v.(type) {
	case int64:
		return n
	case int:
		return int64(n)
	case int32:
		return int64(n)
	case float64:
		return int64(n)
	}
	return def
}

func healthString(obj map[string]any, path ...string) string {
	s, _, _ := unstructured.NestedString(obj, path...)
	return s
}

// join joins non-empty parts with ": ".
func healthJoin(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, ": ")
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
