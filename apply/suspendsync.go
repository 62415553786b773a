package apply

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/plan"
)

// Annotations of a request to sync now through kubeplan serve (kubeplan
// sync --via-serve).
const (
	// AnnotationSyncRequested is when the run was asked for (RFC 3339,
	// nanoseconds): serve runs the project within seconds, then removes it.
	AnnotationSyncRequested = "kubeplan.dev/sync-requested"
	// AnnotationSynced is serve's answer, JSON of a SyncDone.
	AnnotationSynced = "kubeplan.dev/synced"
)

// SyncDone is serve's answer to a sync request.
type SyncDone struct {
	Requested string `json:"requested"` // the request it answers
	By        string `json:"by,omitempty"`
	At        string `json:"at"`     // when the run ended
	Result    string `json:"result"` // ok, failed or suspended
	Error     string `json:"error,omitempty"`
}

// RequestSync asks kubeplan serve to run the set of as now: it records
// the time of the request on the parent and returns it. It refuses a
// suspended set and a parent that does not exist.
func RequestSync(ctx context.Context, c *kube.Client, as applyset.Parent) (string, error) {
	live, err := getParent(ctx, c, as)
	if err != nil {
		return "", err
	}
	if s := plan.ParseSuspension(live.GetAnnotations()[plan.AnnotationSuspended]); s != nil {
		return "", &SuspendedError{Set: as.String(), Namespace: as.Namespace, Suspension: *s}
	}
	at := time.Now().UTC().Format(syncTimeFormat)
	data, err := json.Marshal(map[string]any{"metadata": map[string]any{"annotations": map[string]any{AnnotationSyncRequested: at}}})
	if err != nil {
		return "", err
	}
	if _, err := c.Dynamic.Resource(parentGVR(as)).Namespace(as.Namespace).Patch(ctx, as.Name, types.MergePatchType, data,
		metav1.PatchOptions{FieldManager: suspendFieldManager}); err != nil {
		return "", fmt.Errorf("recording the sync request on the ApplySet parent %s in namespace %s: %w", as, as.Namespace, err)
	}
	return at, nil
}

// WaitSynced waits, reading the parent every poll, until serve answers
// the request made at requested; ctx bounds the wait.
func WaitSynced(ctx context.Context, c *kube.Client, as applyset.Parent, requested string, poll time.Duration) (*SyncDone, error) {
	t := time.NewTicker(poll)
	defer t.Stop()
	for {
		live, err := getParent(ctx, c, as)
		if err != nil {
			return nil, err
		}
		var d SyncDone
		if v := live.GetAnnotations()[AnnotationSynced]; v != "" && json.Unmarshal([]byte(v), &d) == nil && SameOrLater(d.Requested, requested) {
			return &d, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("kubeplan serve did not answer the sync request of %s in namespace %s (made at %s): is serve running for this project? "+
				"The request stays on the parent (%s); serve runs it when it sees it: %w", as, as.Namespace, requested, AnnotationSyncRequested, ctx.Err())
		case <-t.C:
		}
	}
}

// AnswerSync records serve's answer d on the parent of as and removes the
// request it answers, in one JSON patch that removes the request only if
// it is still d.Requested (a newer one stands, for the next run).
func AnswerSync(ctx context.Context, c *kube.Client, as applyset.Parent, d SyncDone) error {
	answer, err := json.Marshal(d)
	if err != nil {
		return err
	}
	key := func(k string) string { return "/metadata/annotations/" + jsonPointerEscape(k) }
	ops := []map[string]any{
		{"op": "test", "path": key(AnnotationSyncRequested), "value": d.Requested},
		{"op": "remove", "path": key(AnnotationSyncRequested)},
		{"op": "add", "path": key(AnnotationSynced), "value": string(answer)},
	}
	ri := c.Dynamic.Resource(parentGVR(as)).Namespace(as.Namespace)
	data, _ := json.Marshal(ops)
	_, err = ri.Patch(ctx, as.Name, types.JSONPatchType, data, metav1.PatchOptions{FieldManager: suspendFieldManager})
	if apierrors.IsInvalid(err) || statusCode(err) == 422 {
		// A newer request replaced it: answer, and leave that one.
		data, _ = json.Marshal(ops[2:])
		_, err = ri.Patch(ctx, as.Name, types.JSONPatchType, data, metav1.PatchOptions{FieldManager: suspendFieldManager})
	}
	if err != nil {
		return fmt.Errorf("answering the sync request on the ApplySet parent %s in namespace %s: %w", as, as.Namespace, err)
	}
	return nil
}

// syncTimeFormat is a request's time: RFC 3339 with nanoseconds, fixed width.
const syncTimeFormat = "2006-01-02T15:04:05.000000000Z07:00"

// SameOrLater reports whether the request time a is b or later; times
// that do not parse (written by hand) compare as text.
func SameOrLater(a, b string) bool {
	ta, erra := time.Parse(time.RFC3339Nano, a)
	tb, errb := time.Parse(time.RFC3339Nano, b)
	if erra != nil || errb != nil {
		return a >= b
	}
	return !ta.Before(tb)
}

// jsonPointerEscape escapes an annotation key for a JSON pointer.
func jsonPointerEscape(k string) string {
	out := make([]byte, 0, len(k))
	for i := 0; i < len(k); i++ {
		switch k[i] {
		case '~':
			out = append(out, '~', '0')
		case '/':
			out = append(out, '~', '1')
		default:
			out = append(out, k[i])
		}
	}
	return string(out)
}

// statusCode is the HTTP status of an API error, 0 for another error.
func statusCode(err error) int32 {
	var se apierrors.APIStatus
	if errors.As(err, &se) {
		return se.Status().Code
	}
	return 0
}
