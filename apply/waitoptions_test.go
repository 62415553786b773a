package apply

import (
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
