package notify_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	. "github.com/kubeplan/kubeplan/notify"
)

// The stage a failed ordered run stopped at reaches the payload scrubbed
// of the webhook's URL and capped, on the event and each failure; it is
// dropped from a run that succeeded.
func TestStageScrubbedAndCapped(t *testing.T) {
	h := newHook(t)
	n := newNotifier(t, Config{Webhook: h.URL + "/secret-path"})
	r := run(0, "abc", errors.New("stage wave 1: failed"))
	r.Stage = "wave 1 " + h.URL + "/secret-path " + strings.Repeat("é", 400)
	r.Failures = []Failure{{Workload: "job.batch/migrate", Reason: "BackoffLimitExceeded", Summary: "job.batch/migrate: BackoffLimitExceeded", Stage: r.Stage}}
	observe(t, n, r)
	ok := run(1, "abc", nil)
	ok.Stage = "wave 1"
	observe(t, n, ok)
	bodies := h.received()
	if len(bodies) != 2 {
		t.Fatalf("%d payloads", len(bodies))
	}
	var e Event
	if err := json.Unmarshal([]byte(bodies[0]), &e); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(bodies[0], "secret-path") {
		t.Errorf("the webhook's URL is in the payload: %s", bodies[0])
	}
	if !strings.HasPrefix(e.Stage, "wave 1 ") || len([]rune(e.Stage)) > 300 || len(e.Failures) != 1 || e.Failures[0].Stage != e.Stage {
		t.Errorf("stage %q (%d characters), failures %+v", e.Stage, len([]rune(e.Stage)), e.Failures)
	}
	var rec Event
	if err := json.Unmarshal([]byte(bodies[1]), &rec); err != nil || rec.Kind != KindRecovered || rec.Stage != "" || strings.Contains(bodies[1], `"stage"`) {
		t.Errorf("recovery %s (%v)", bodies[1], err)
	}
}
