package serve

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/render"
)

// Event reasons, as Flux names its own. Flux's kustomize-controller gives
// its Event the reason of its Ready condition, HealthCheckFailed when the
// health checks of the applied objects failed and ReconciliationFailed
// (or the failed step's reason) otherwise; serve does the same.
const (
	ReasonSucceeded         = "ReconciliationSucceeded"
	ReasonPruned            = "Pruned"
	ReasonFailed            = "ReconciliationFailed"
	ReasonHealthCheckFailed = "HealthCheckFailed"
	// ReasonApprovalPending: changes a guard rule holds for approval were
	// not applied (the run was refused, or its prunes held back).
	ReasonApprovalPending = "ApprovalPending"
	// ReasonDenied: a guard rule denies a change; nothing was applied.
	ReasonDenied = "ChangeDenied"
	// ReasonWindowClosed: the project's change windows are closed; the
	// run waits for them.
	ReasonWindowClosed = "ChangeWindowClosed"
	// ReasonSourceFailed: the git source cannot be fetched or read;
	// nothing is applied or pruned until it is. ReasonSourceRecovered:
	// it is fetched again.
	ReasonSourceFailed    = "SourceFailed"
	ReasonSourceRecovered = "SourceRecovered"
)

// ReportingController is the Events' reportingController.
const ReportingController = "kubeplan.dev/serve"

var eventsGVR = schema.GroupVersionResource{Group: "events.k8s.io", Version: "v1", Resource: "events"}

// maxNote is the API server's limit on an Event's note.
const maxNote = render.MaxEventNote

// events records a run on its ApplySet parent as an events.k8s.io/v1
// Event. An Event is named after the parent, reason and note, so the same
// failure round after round (from any replica) updates one Event's series
// instead of creating another.
type events struct {
	instance string
	mu       sync.Mutex
	count    map[string]int32 // event name -> series count written
}

func newEvents(instance string) *events {
	return &events{instance: instance, count: map[string]int32{}}
}

// reasonOf is the Event of a run: none for a run that neither wrote nor
// failed.
func reasonOf(r RunResult) (reason, typ string, ok bool) {
	switch {
	case r.WindowClosed != "":
		return ReasonWindowClosed, "Normal", true
	case r.Err != nil && guardReason(r.Err) != "":
		return guardReason(r.Err), "Warning", true
	case r.Err != nil && healthFailed(r.Err):
		return ReasonHealthCheckFailed, "Warning", true
	case r.Err != nil:
		return ReasonFailed, "Warning", true
	case r.Applied > 0:
		return ReasonSucceeded, "Normal", true
	case r.Pruned > 0:
		return ReasonPruned, "Normal", true
	}
	return "", "", false
}

// note is the Event's message: revision, counts, error, or for a failed
// health wait each workload's reason (render.EventNote).
func note(r RunResult) string {
	if r.WindowClosed != "" {
		return render.EventNote(render.EventRun{Revision: r.Revision, Subject: r.Subject, Err: errorString("waiting: " + r.WindowClosed)})
	}
	return render.EventNote(render.EventRun{Revision: r.Revision, Subject: r.Subject, Err: r.Err, Findings: r.Findings,
		Applied: r.Applied, Pruned: r.Pruned, Unchanged: r.Unchanged})
}

// record writes the run's Event on the parent, if the run deserves one.
// Failed runs with the same note share one Event; its series counts them.
func (e *events) record(ctx context.Context, c *kube.Client, r RunResult) error {
	reason, typ, ok := reasonOf(r)
	if !ok || r.ApplySet == "" {
		return nil
	}
	parent, err := applyset.ParseParentFlag(r.ApplySet, r.Namespace)
	if err != nil {
		return err
	}
	return e.write(ctx, c, parent, reason, typ, note(r))
}

// write records an Event of reason, typ and msg on parent; an Event with
// the same reason and note is counted in its series.
func (e *events) write(ctx context.Context, c *kube.Client, parent applyset.Parent, reason, typ, msg string) error {
	// A failure's note is the same every round; a success's names its
	// counts, and the same success again (drift repaired the same way)
	// is a repeat too.
	sum := sha256.Sum256([]byte(reason + "\x00" + msg))
	name := fmt.Sprintf("%s.%s", parent.Name, hex.EncodeToString(sum[:8]))
	evs := c.Dynamic.Resource(eventsGVR).Namespace(parent.Namespace)
	now := metav1.NowMicro()

	e.mu.Lock()
	n := e.count[name]
	e.mu.Unlock()
	if n == 0 {
		ev := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "events.k8s.io/v1",
			"kind":       "Event",
			"metadata": map[string]any{"name": name, "namespace": parent.Namespace,
				"labels": map[string]any{"app.kubernetes.io/managed-by": "kubeplan"}},
			"eventTime":           now.Format(metav1.RFC3339Micro),
			"reportingController": ReportingController,
			"reportingInstance":   e.instance,
			"action":              "Reconcile",
			"reason":              reason,
			"type":                typ,
			"note":                msg,
			"regarding":           e.regarding(ctx, c, parent),
		}}
		_, err := evs.Create(ctx, ev, metav1.CreateOptions{})
		if err == nil {
			e.set(name, 1)
			return nil
		}
		if !apierrors.IsAlreadyExists(err) {
			return fmt.Errorf("recording Event %s on %s: %w", reason, parent, err)
		}
	}
	// A repeat: count it in the Event's series.
	cur, err := evs.Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return fmt.Errorf("reading Event %s: %w", name, err)
	}
	count, _, _ := unstructured.NestedInt64(cur.Object, "series", "count")
	if count < 1 {
		count = 1
	}
	count++
	patch, _ := json.Marshal(map[string]any{"series": map[string]any{"count": count, "lastObservedTime": now.Format(metav1.RFC3339Micro)}})
	if _, err := evs.Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
		return fmt.Errorf("updating Event %s: %w", name, err)
	}
	e.set(name, int32(count))
	return nil
}

func (e *events) set(name string, n int32) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.count[name] = n
}

// regarding is the Event's object reference to the parent, with its uid
// when the parent exists.
func (e *events) regarding(ctx context.Context, c *kube.Client, p applyset.Parent) map[string]any {
	ref := map[string]any{"apiVersion": "v1", "kind": p.Kind, "name": p.Name, "namespace": p.Namespace}
	gvr := schema.GroupVersionResource{Version: "v1", Resource: p.Resource()}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if u, err := c.Dynamic.Resource(gvr).Namespace(p.Namespace).Get(ctx, p.Name, metav1.GetOptions{}); err == nil {
		ref["uid"] = string(u.GetUID())
		ref["resourceVersion"] = u.GetResourceVersion()
	}
	return ref
}
