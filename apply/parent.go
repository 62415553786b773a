package apply

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/helmhook"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/plan"
)

// Annotations kubeplan records on the ApplySet parent about the last run.
const (
	AnnotationRevision  = "kubeplan.dev/revision"
	AnnotationAppliedAt = "kubeplan.dev/applied-at"
	AnnotationResult    = "kubeplan.dev/result"
	AnnotationLastError = "kubeplan.dev/last-error"
	// AnnotationCheckedAt is when a run last compared the cluster with the
	// source, whether or not it wrote (at most once a minute for runs that
	// found nothing to do); AnnotationAppliedAt moves only when a run
	// wrote an object.
	AnnotationCheckedAt = "kubeplan.dev/checked-at"
)

// parentWriter keeps the ApplySet parent in step with the apply: the union
// of old and new member types before any member is written, the exact set
// and the run's record at the end. It writes only when something changes,
// so a no-op reconcile makes no write.
type parentWriter struct {
	c      *kube.Client
	p      *plan.Plan
	opts   Options
	labels map[string]string
	annots map[string]string // what the parent holds now (ours)
	state  applyset.State    // the member types it lists now
	rv     string            // the resourceVersion read or written last: writes are conditional on it
	// managed is the parent's managedFields as read or written last.
	managed []metav1.ManagedFieldsEntry
	// hooksRan collects the hook-succeeded hooks this run ran (runHooks).
	hooksRan map[string]string
	// held are the prunes a pending approval holds back: they stay
	// members, so their types stay listed. guards is what the guards
	// decided (recorded with the result).
	held   []plan.Change
	guards *GuardDecision
}

// resultRunning is recorded when a run starts writing; the run's end
// replaces it with ok or failed. Found later without a live lock, it means
// the last record failed (status says "unknown").
const resultRunning = "running"

// recordTimeout bounds the write of the run's record at its end, which
// runs after the run's own deadline may have passed.
const recordTimeout = 10 * time.Second

func (w *parentWriter) gvr() schema.GroupVersionResource {
	return schema.GroupVersionResource{Version: "v1", Resource: w.opts.ApplySet.Resource()}
}

// writeUnion reads the parent and, if needed, writes it with the union of
// the types it lists and the types of the new set, so that an interrupted
// apply can still find every member to prune later.
func (w *parentWriter) writeUnion(ctx context.Context, keep []plan.Change) error {
	as := w.opts.ApplySet
	if as == nil {
		return nil
	}
	live, err := w.c.Dynamic.Resource(w.gvr()).Namespace(as.Namespace).Get(ctx, as.Name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		w.annots = map[string]string{}
	case err != nil:
		return fmt.Errorf("reading the ApplySet parent %s: %w", as, err)
	default:
		w.labels, w.annots, w.rv, w.managed = live.GetLabels(), live.GetAnnotations(), live.GetResourceVersion(), live.GetManagedFields()
		if w.annots == nil {
			w.annots = map[string]string{}
		}
		if st, err := applyset.ReadState(w.labels, w.annots); err == nil {
			w.state = st
		}
	}
	kinds, nss := setOf(append(slices.Clip(keep), w.held...))
	union := applyset.NewState(*as, w.opts.Version, applyset.Union(w.state.GroupKinds, kinds), append(nss, w.state.Namespaces...))
	return w.write(ctx, union, map[string]string{AnnotationResult: resultRunning}, false)
}

// recordResult writes the exact set (after a successful apply and prune) and
// the run's revision and result.
//
// wrote says whether the run wrote an object: only then does applied-at move
// for sure. A run that wrote nothing writes the parent only when the record
// changes (a new revision, a result), and checked-at moves with it.
func (w *parentWriter) recordResult(ctx context.Context, runErr error, keep []plan.Change, wrote bool) error {
	as := w.opts.ApplySet
	if as == nil {
		return nil
	}
	st := w.state
	stamp := now()
	record := map[string]string{AnnotationResult: "ok", AnnotationLastError: "", AnnotationLastFailure: "", AnnotationCheckedAt: stamp}
	if wrote {
		record[AnnotationAppliedAt] = stamp
	}
	if runErr == nil {
		kinds, nss := setOf(append(slices.Clip(keep), w.held...))
		st = applyset.NewState(*as, w.opts.Version, kinds, nss)
	} else {
		record[AnnotationResult] = "failed"
		record[AnnotationLastError] = lastError(runErr)
		record[AnnotationLastFailure] = lastFailureRecord(runErr)
	}
	if w.opts.Revision != "" {
		record[AnnotationRevision] = w.opts.Revision
	}
	if w.guards != nil {
		record[AnnotationApprovals] = approvalsRecord(w.annots[AnnotationApprovals], w.guards.Used)
		record[AnnotationPending] = ""
		if len(w.held) > 0 {
			record[AnnotationPending] = pendingRecord(w.guards.Pending)
		}
	}
	record[helmhook.RanAnnotation] = hooksRanRecord(w.annots[helmhook.RanAnnotation], keep, w.hooksRan)
	// The record has a deadline of its own: it is written even when the
	// run's deadline has passed or Ctrl-C was pressed, but never by a
	// process that lost the lock (the fence stays on the context).
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), recordTimeout)
	defer cancel()
	if err := w.write(ctx, st, record, wrote); err != nil {
		return fmt.Errorf("the run's result could not be recorded (status will say unknown): %w", err)
	}
	return nil
}

// write server-side applies the parent when its labels or annotations would
// change, or always when stamp is set (the end of a run records its time).
func (w *parentWriter) write(ctx context.Context, st applyset.State, record map[string]string, stamp bool) error {
	as := w.opts.ApplySet
	want := st.Annotations()
	for _, k := range []string{AnnotationRevision, AnnotationResult, AnnotationLastError, AnnotationLastFailure, AnnotationAppliedAt, AnnotationCheckedAt, helmhook.RanAnnotation, AnnotationApprovals, AnnotationPending} {
		if v, ok := w.annots[k]; ok {
			want[k] = v
		}
	}
	maps.Copy(want, record)
	if want[helmhook.RanAnnotation] == "" {
		delete(want, helmhook.RanAnnotation) // server-side apply drops it: this manager owned it
	}
	if want[AnnotationApprovals] == "" {
		delete(want, AnnotationApprovals)
	}
	for _, k := range []string{AnnotationLastError, AnnotationLastFailure, AnnotationPending} {
		if want[k] != "" {
			continue
		}
		if w.annots[k] != "" && !ownsAnnotation(w.managed, w.opts.FieldManager, k) {
			// RecordFailure set it with a merge patch (or another field
			// manager applied it), which an apply that leaves the key
			// out would not remove: clear it.
			want[k] = ""
		} else {
			delete(want, k) // server-side apply drops it: this manager alone held it
		}
	}
	if !stamp && w.labels[applyset.LabelID] == st.ID && sameAnnotations(w.annots, want) {
		return nil
	}
	for attempt := 0; ; attempt++ {
		if err := fenceCheck(ctx); err != nil {
			return fmt.Errorf("writing the ApplySet parent %s: %w", as, err)
		}
		res, err := w.apply(ctx, st, want)
		if err == nil {
			w.labels, w.annots, w.state, w.rv, w.managed = res.GetLabels(), res.GetAnnotations(), st, res.GetResourceVersion(), res.GetManagedFields()
			return nil
		}
		if !apierrors.IsConflict(err) || attempt == 2 {
			return fmt.Errorf("writing the ApplySet parent %s: %w", as, err)
		}
		if err := w.reread(ctx); err != nil {
			return err
		}
	}
}

// apply server-side applies the parent, conditional on the resourceVersion
// last seen: a stale copy never overwrites a newer parent.
func (w *parentWriter) apply(ctx context.Context, st applyset.State, annotations map[string]string) (*unstructured.Unstructured, error) {
	as := w.opts.ApplySet
	meta := map[string]any{"name": as.Name, "namespace": as.Namespace, "labels": st.Labels(), "annotations": annotations}
	if w.rv != "" {
		meta["resourceVersion"] = w.rv
	}
	data, err := json.Marshal(map[string]any{"apiVersion": "v1", "kind": as.Kind, "metadata": meta})
	if err != nil {
		return nil, err
	}
	force := true
	return w.c.Dynamic.Resource(w.gvr()).Namespace(as.Namespace).Patch(ctx, as.Name, types.ApplyPatchType, data,
		metav1.PatchOptions{FieldManager: w.opts.FieldManager, Force: &force})
}

// reread handles a conflict: the parent changed since this run last read
// it. When only the record changed (a concurrent no-op run noted its check
// time), the write is retried on the new version. When the set itself
// changed (its id, member types or namespaces), another apply wrote it:
// this run stops, so that it can never narrow or overwrite that apply's set.
func (w *parentWriter) reread(ctx context.Context) error {
	as := w.opts.ApplySet
	live, err := w.c.Dynamic.Resource(w.gvr()).Namespace(as.Namespace).Get(ctx, as.Name, metav1.GetOptions{})
	if err != nil {
		return fmt.Errorf("re-reading the ApplySet parent %s after a conflict: %w", as, err)
	}
	a := live.GetAnnotations()
	for _, k := range []string{applyset.AnnotationGroupKinds, applyset.AnnotationGroupResources, applyset.AnnotationNamespaces} {
		if a[k] != w.annots[k] {
			return fmt.Errorf("the ApplySet parent %s was changed by another writer during this run (%s); not overwritten: run again", as, k)
		}
	}
	if live.GetLabels()[applyset.LabelID] != w.labels[applyset.LabelID] {
		return fmt.Errorf("the ApplySet parent %s was changed by another writer during this run; not overwritten: run again", as)
	}
	w.rv = live.GetResourceVersion()
	return nil
}

// sameAnnotations compares the annotations kubeplan owns, ignoring the
// times (they change only when something else does).
func sameAnnotations(have, want map[string]string) bool {
	for k, v := range want {
		if k == AnnotationAppliedAt || k == AnnotationCheckedAt {
			continue
		}
		if have[k] != v {
			return false
		}
	}
	for _, k := range []string{AnnotationLastError, AnnotationLastFailure, helmhook.RanAnnotation} {
		if _, ok := want[k]; !ok && have[k] != "" {
			return false
		}
	}
	return true
}

// setOf lists the member types and namespaces of the objects kept.
func setOf(keep []plan.Change) ([]applyset.GroupKind, []string) {
	var kinds []applyset.GroupKind
	nsSet := map[string]bool{}
	for _, ch := range keep {
		kinds = append(kinds, applyset.GroupKind{Group: ch.Ref.Group, Kind: ch.Ref.Kind})
		if ch.Ref.Namespace != "" {
			nsSet[ch.Ref.Namespace] = true
		}
	}
	var nss []string
	for n := range nsSet {
		nss = append(nss, n)
	}
	sort.Strings(nss)
	return applyset.Union(kinds, nil), nss
}
