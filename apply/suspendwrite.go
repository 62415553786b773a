package apply

import (
	"context"
	"encoding/json"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/guard"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/plan"
)

// suspendFieldManager is the field manager of suspend, resume and sync
// requests: they merge-patch annotations the apply's own manager never
// lists, so an apply leaves them alone.
const suspendFieldManager = "kubeplan-suspend"

// Suspended says what Suspend or Resume found and did.
type Suspended struct {
	// Before is the suspension the parent held (nil when none).
	Before *plan.Suspension
	// Now is the parent's suspension after the call (nil after Resume).
	Now *plan.Suspension
}

// Suspend records s on the parent of as (kubeplan.dev/suspended), and in
// its history (kubeplan.dev/approvals), replacing a suspension it held.
// It writes only the parent, and refuses a parent that does not exist.
func Suspend(ctx context.Context, c *kube.Client, as applyset.Parent, s plan.Suspension) (*Suspended, error) {
	if s.At == "" {
		s.At = now()
	}
	data, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	rec := ApprovalRecord{Approval: guard.Approval{Reason: s.Reason, Via: "kubeplan suspend", By: s.By, At: s.At}, Suspend: SuspendSuspended}
	before, err := patchSuspension(ctx, c, as, string(data), rec)
	if err != nil {
		return nil, err
	}
	return &Suspended{Before: before, Now: &s}, nil
}

// Resume removes the suspension of the parent of as and records who
// resumed it (by) in its history. A parent that is not suspended is left
// as it is (Before is nil).
func Resume(ctx context.Context, c *kube.Client, as applyset.Parent, by string) (*Suspended, error) {
	live, err := getParent(ctx, c, as)
	if err != nil {
		return nil, err
	}
	if plan.ParseSuspension(live.GetAnnotations()[plan.AnnotationSuspended]) == nil {
		return &Suspended{}, nil
	}
	rec := ApprovalRecord{Approval: guard.Approval{Via: "kubeplan resume", By: by, At: now()}, Suspend: SuspendResumed}
	before, err := patchSuspension(ctx, c, as, "", rec)
	if err != nil {
		return nil, err
	}
	return &Suspended{Before: before}, nil
}

// patchSuspension sets (value) or removes ("") the suspension and puts
// rec first in the history, in one merge patch conditional on the
// parent's resourceVersion (read again and retried on a conflict). It
// returns the suspension the parent held.
func patchSuspension(ctx context.Context, c *kube.Client, as applyset.Parent, value string, rec ApprovalRecord) (*plan.Suspension, error) {
	for attempt := 0; ; attempt++ {
		live, err := getParent(ctx, c, as)
		if err != nil {
			return nil, err
		}
		a := live.GetAnnotations()
		patch := map[string]any{
			"metadata": map[string]any{"resourceVersion": live.GetResourceVersion(), "annotations": map[string]any{
				plan.AnnotationSuspended: nullIfEmpty(value),
				AnnotationApprovals:      approvalsRecord(a[AnnotationApprovals], []ApprovalRecord{rec}),
			}},
		}
		data, err := json.Marshal(patch)
		if err != nil {
			return nil, err
		}
		_, err = c.Dynamic.Resource(parentGVR(as)).Namespace(as.Namespace).Patch(ctx, as.Name, types.MergePatchType, data,
			metav1.PatchOptions{FieldManager: suspendFieldManager})
		if apierrors.IsConflict(err) && attempt < 2 {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("writing the ApplySet parent %s in namespace %s: %w", as, as.Namespace, err)
		}
		return plan.ParseSuspension(a[plan.AnnotationSuspended]), nil
	}
}

// getParent reads the parent of as; one that does not exist is an error
// that says so.
func getParent(ctx context.Context, c *kube.Client, as applyset.Parent) (*unstructured.Unstructured, error) {
	live, err := c.Dynamic.Resource(parentGVR(as)).Namespace(as.Namespace).Get(ctx, as.Name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, fmt.Errorf("%s in namespace %s: %w; nothing was written (apply the project once first)", as, as.Namespace, ErrNoApplySet)
	}
	if err != nil {
		return nil, fmt.Errorf("reading the ApplySet parent %s in namespace %s: %w", as, as.Namespace, err)
	}
	return live, nil
}

func parentGVR(as applyset.Parent) schema.GroupVersionResource {
	return schema.GroupVersionResource{Version: "v1", Resource: as.Resource()}
}
