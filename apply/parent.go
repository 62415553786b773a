package apply

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"sort"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubeplan/kubeplan/internal/applyset"
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
}

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
		w.labels, w.annots = live.GetLabels(), live.GetAnnotations()
		if w.annots == nil {
			w.annots = map[string]string{}
		}
		if st, err := applyset.ReadState(w.labels, w.annots); err == nil {
			w.state = st
		}
	}
	kinds, nss := setOf(keep)
	union := applyset.NewState(*as, w.opts.Version, applyset.Union(w.state.GroupKinds, kinds), append(nss, w.state.Namespaces...))
	return w.write(ctx, union, nil, false)
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
	record := map[string]string{AnnotationResult: "ok", AnnotationLastError: "", AnnotationCheckedAt: stamp}
	if wrote {
		record[AnnotationAppliedAt] = stamp
	}
	if runErr == nil {
		kinds, nss := setOf(keep)
		st = applyset.NewState(*as, w.opts.Version, kinds, nss)
	} else {
		record[AnnotationResult] = "failed"
		record[AnnotationLastError] = lastError(runErr)
	}
	if w.opts.Revision != "" {
		record[AnnotationRevision] = w.opts.Revision
	}
	return w.write(ctx, st, record, wrote)
}

// write server-side applies the parent when its labels or annotations would
// change, or always when stamp is set (the end of a run records its time).
func (w *parentWriter) write(ctx context.Context, st applyset.State, record map[string]string, stamp bool) error {
	as := w.opts.ApplySet
	want := st.Annotations()
	for _, k := range []string{AnnotationRevision, AnnotationResult, AnnotationLastError, AnnotationAppliedAt, AnnotationCheckedAt} {
		if v, ok := w.annots[k]; ok {
			want[k] = v
		}
	}
	maps.Copy(want, record)
	if want[AnnotationLastError] == "" {
		if _, ok := w.annots[AnnotationLastError]; ok {
			// RecordFailure set it with a merge patch, which an apply
			// that leaves the key out would not remove: clear it.
			want[AnnotationLastError] = ""
		} else {
			delete(want, AnnotationLastError)
		}
	}
	if !stamp && w.labels[applyset.LabelID] == st.ID && sameAnnotations(w.annots, want) {
		return nil
	}
	obj := map[string]any{
		"apiVersion": "v1", "kind": as.Kind,
		"metadata": map[string]any{"name": as.Name, "namespace": as.Namespace, "labels": st.Labels(), "annotations": want},
	}
	data, err := json.Marshal(obj)
	if err != nil {
		return err
	}
	force := true
	res, err := w.c.Dynamic.Resource(w.gvr()).Namespace(as.Namespace).Patch(ctx, as.Name, types.ApplyPatchType, data,
		metav1.PatchOptions{FieldManager: w.opts.FieldManager, Force: &force})
	if err != nil {
		return fmt.Errorf("writing the ApplySet parent %s: %w", as, err)
	}
	w.labels, w.annots, w.state = res.GetLabels(), res.GetAnnotations(), st
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
	for _, k := range []string{AnnotationLastError} {
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
