package apply

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/internal/sops"
	"github.com/kubeplan/kubeplan/plan"
)

// checkedResolution is how often a run that changes nothing records its
// checked-at time: a no-op run within this long of the last record writes
// nothing at all, so back-to-back reconciles stay free.
const checkedResolution = time.Minute

// recordChecked moves the parent's checked-at time after a run that found
// nothing to do, at most once per checkedResolution (opts.CheckedEvery
// when set; never when it is negative). It is a merge patch of that one
// annotation: the set and the record of the last apply stay.
func recordChecked(ctx context.Context, c *kube.Client, p *plan.Plan, opts Options) error {
	if opts.ApplySet == nil || p.Parent == nil || !p.Parent.Exists || opts.CheckedEvery < 0 {
		return nil
	}
	every := checkedResolution
	if opts.CheckedEvery > 0 {
		every = opts.CheckedEvery
	}
	if t, err := time.Parse(time.RFC3339, p.Parent.CheckedAt); err == nil && time.Since(t) < every {
		return nil
	}
	return patchRecord(ctx, c, *opts.ApplySet, opts.FieldManager, map[string]any{AnnotationCheckedAt: now()})
}

// RecordFailure records on an existing ApplySet parent that a run failed
// before it could write anything (lint, dry-run, a stale plan): status then
// says "Result: failed" with err. The set itself (members, group-kinds) is
// not touched, nor is the parent created. When another apply holds the
// lock, nothing is recorded: that run records its own result.
func RecordFailure(ctx context.Context, c *kube.Client, as applyset.Parent, fieldManager string, runErr error) error {
	ctx = context.WithoutCancel(ctx)
	gvr := schema.GroupVersionResource{Version: "v1", Resource: as.Resource()}
	if _, err := c.Dynamic.Resource(gvr).Namespace(as.Namespace).Get(ctx, as.Name, metav1.GetOptions{}); err != nil {
		if apierrors.IsNotFound(err) {
			return nil
		}
		return fmt.Errorf("reading the ApplySet parent %s: %w", as, err)
	}
	lock, err := AcquireLock(ctx, c, LockOptions{Namespace: as.Namespace, Name: LockName(as)})
	if err != nil {
		return nil // another apply runs and records its own result
	}
	defer lock.Release(ctx)
	fenced, cancel := lock.Fence(ctx)
	defer cancel()
	return recordFailure(fenced, c, as, fieldManager, runErr)
}

// recordFailure records a failed run on the parent; the caller holds the
// lock and passes its fenced context.
func recordFailure(ctx context.Context, c *kube.Client, as applyset.Parent, fieldManager string, runErr error) error {
	if err := fenceCheck(ctx); err != nil {
		return err
	}
	if fieldManager == "" {
		fieldManager = "kubeplan"
	}
	return patchRecord(ctx, c, as, fieldManager, map[string]any{
		AnnotationResult: "failed", AnnotationLastError: lastError(runErr), AnnotationCheckedAt: now(),
		// The diagnosis of an older run's wait is not this run's: null
		// removes it (a stage's failure is recorded).
		AnnotationLastFailure: nullIfEmpty(lastFailureRecord(runErr)),
		// A run the guards refused records what waits for approval.
		AnnotationPending: nullIfEmpty(pendingOf(runErr)),
	})
}

// patchRecord merge-patches annotations of the parent.
func patchRecord(ctx context.Context, c *kube.Client, as applyset.Parent, fieldManager string, annotations map[string]any) error {
	data, err := json.Marshal(map[string]any{"metadata": map[string]any{"annotations": annotations}})
	if err != nil {
		return err
	}
	gvr := schema.GroupVersionResource{Version: "v1", Resource: as.Resource()}
	_, err = c.Dynamic.Resource(gvr).Namespace(as.Namespace).Patch(ctx, as.Name, types.MergePatchType, data,
		metav1.PatchOptions{FieldManager: fieldManager + "-record"})
	if err != nil {
		return fmt.Errorf("recording the run on the ApplySet parent %s: %w", as, err)
	}
	return nil
}

// nullIfEmpty is s for a merge patch: nil (remove the key) when "".
func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// lastError is the error as recorded: one line per error, capped so the
// annotation stays small; a stage's failure as StageText says it
// ("stage wave 1: ...").
func lastError(err error) string {
	const maxLen = 4096
	// status shows it to anyone who reads the parent, without decrypting:
	// a value decrypted from SOPS that the error quotes is hidden.
	return clip(sops.Scrub(StageText(err)), maxLen)
}

// StageText is err's text, for a stage's failure (StageError) led by the
// stage: "stage wave 1: " and the cause, then "; the SyncFail hooks
// failed too: ..." when they did. The StageError's own sentence is
// replaced by that where err's text holds it, so the stage is said once;
// other errors are their Error().
func StageText(err error) string {
	var se *StageError
	if !errors.As(err, &se) {
		return err.Error()
	}
	cause := "it failed"
	if se.Err != nil {
		cause = se.Err.Error()
	}
	if se.OnFail != nil {
		cause += "; the SyncFail hooks failed too: " + se.OnFail.Error()
	}
	lead := "stage " + se.Stage + ": "
	full, own := err.Error(), se.Error()
	i := strings.Index(full, own)
	switch {
	case i == 0:
		return lead + cause + full[len(own):]
	case i > 0:
		return lead + full[:i] + cause + full[i+len(own):]
	}
	return lead + full
}

func now() string { return time.Now().UTC().Format(time.RFC3339) }
