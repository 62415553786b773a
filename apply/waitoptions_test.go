package apply

import (
	"slices"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/plan"
)

func TestHealthWaitOptionsSelector(t *testing.T) {
	as := &applyset.Parent{Kind: "ConfigMap", Name: "set", Namespace: "ns"}
	labelled := func(id string) plan.Change {
		return plan.Change{Ref: plan.Ref{Version: "v1", Kind: "ConfigMap", Name: "a"},
			Object: map[string]any{"metadata": map[string]any{"labels": map[string]any{applyset.LabelPartOf: id}}}}
	}
	w := waitOptions([]plan.Change{labelled(as.ID())}, Options{ApplySet: as, Timeout: time.Minute})
	if w.Selector != applyset.MemberSelector(as.ID()) || w.Timeout != time.Minute || len(w.Written) != 1 {
		t.Errorf("labelled: %+v", w)
	}
	if w := waitOptions([]plan.Change{labelled(as.ID()), labelled("other")}, Options{ApplySet: as}); w.Selector != "" {
		t.Errorf("an object without the label: selector %q", w.Selector)
	}
	if w := waitOptions([]plan.Change{labelled(as.ID())}, Options{}); w.Selector != "" {
		t.Errorf("no ApplySet: selector %q", w.Selector)
	}
}

// The wait fails fast and diagnoses unless NoFailFast, and masks the
// set's Secret values in a diagnosis.
func TestHealthWaitOptionsFailFast(t *testing.T) {
	secret := plan.Change{Ref: plan.Ref{Version: "v1", Kind: "Secret", Name: "db"},
		Object: map[string]any{"apiVersion": "v1", "kind": "Secret", "stringData": map[string]any{"password": "canary-wait-3c9d"}}}
	w := waitOptions([]plan.Change{secret}, Options{})
	if !w.FailFast || !w.Diagnose || w.SecretValues == nil || !slices.Contains(w.Secrets, "canary-wait-3c9d") {
		t.Errorf("default: fail fast %v, diagnose %v, secrets %q", w.FailFast, w.Diagnose, w.Secrets)
	}
	if w := waitOptions(nil, Options{NoFailFast: true}); w.FailFast || !w.Diagnose {
		t.Errorf("NoFailFast: fail fast %v, diagnose %v", w.FailFast, w.Diagnose)
	}
}
