package notify_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	. "github.com/kubeplan/kubeplan/notify"
)

// A run with yield hints sends one yield-suggested payload with them,
// besides (not instead of) the failing and recovered ones; a run without
// sends none.
func TestYieldHintsSentOnce(t *testing.T) {
	h := newHook(t)
	n := newNotifier(t, Config{Webhook: h.URL})
	observe(t, n, run(1, "aaa", nil))
	r := run(2, "aaa", nil)
	note := `spec.replicas of deployment.apps/web was set by other and taken back in 3 runs in a row; to leave it to other, add to kubeplan.yaml: yield: [{kind: Deployment, group: apps, paths: ["spec.replicas"]}] (docs/yield.md); or stop other from writing it`
	r.YieldHints = []string{note}
	observe(t, n, r)
	observe(t, n, run(3, "aaa", nil))
	if got := h.kinds(t); !reflect.DeepEqual(got, []string{KindYieldSuggested}) {
		t.Fatalf("kinds %v, want one yield-suggested", got)
	}
	var e Event
	if err := json.Unmarshal([]byte(h.received()[0]), &e); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(e.Hints, []string{note}) || e.Project != "store" || !strings.HasPrefix(e.Summary, "kubeplan: project store (revision aaa, cluster prod, namespace store): spec.replicas of deployment.apps/web") {
		t.Errorf("payload: %+v", e)
	}
	for _, format := range []string{"slack", "teams"} {
		h := newHook(t)
		n := newNotifier(t, Config{Webhook: h.URL, Format: format})
		observe(t, n, r)
		if got := h.received(); len(got) != 1 || !strings.Contains(got[0], `yield: [{kind: Deployment`) {
			t.Errorf("%s: %v", format, got)
		}
	}
}
