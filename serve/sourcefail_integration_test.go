package serve_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
	"github.com/kubeplan/kubeplan/notify"
	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/serve"
)

// hookBodies is a notification webhook (a local server) and what it got.
type hookBodies struct {
	mu     sync.Mutex
	bodies []notify.Event
}

func (h *hookBodies) events() []notify.Event {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]notify.Event(nil), h.bodies...)
}

// TestIntegrationServeSourceFailing: the git source becomes unreachable
// (its directory moved away) and comes back. Meanwhile serve counts the
// failure by reason, sets kubeplan_source_failing with since when,
// records kubeplan.dev/source-failing on the parent (kubeplan status
// shows it, with the last revision applied) and a SourceFailed Event, and
// sends one notification; it runs nothing and writes nothing after that.
// Once the source is back: the gauge is 0, the record gone, a
// SourceRecovered Event, one "recovered" notification, and runs again.
func TestIntegrationServeSourceFailing(t *testing.T) {
	testkube.Integration(t)
	t.Setenv("KUBEPLAN_CACHE_DIR", t.TempDir())
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	g := newRepo(t)
	cfg := "projects:\n  - name: app\n    path: app\n    namespace: " + ns + "\n    applyset: configmap/app-set\n"
	first := g.commit("first", map[string]string{"kubeplan.yaml": cfg, "app/settings.yaml": configMap("settings", "a")})

	var hb hookBodies
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var e notify.Event
		if err := json.Unmarshal(b, &e); err != nil {
			t.Errorf("notification %s: %v", b, err)
		}
		hb.mu.Lock()
		hb.bodies = append(hb.bodies, e)
		hb.mu.Unlock()
	}))
	defer hook.Close()
	n, err := notify.New(notify.Config{Webhook: hook.URL + "/hook", Words: render.NotifyWords{}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := startServe(t, c, ns, g, serve.Options{Interval: time.Second, OnRun: serve.Notify(n, testWriter{t}),
		OnSource: serve.NotifySource(n, testWriter{t})})
	_, _ = s.rs.wait(t, 0, "applying the first commit", func(r serve.RunResult) bool { return r.Err == nil && r.Applied == 1 })

	annotation := func() string {
		return c.Kubectl(t, "-n", ns, "get", "configmap", "app-set", "-o", `jsonpath={.metadata.annotations.kubeplan\.dev/source-failing}`)
	}
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(30 * time.Second); !ok(); time.Sleep(100 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("not %s within 30s; metrics:\n%s", what, grepLines(scrape(t, s.base), "kubeplan_source"))
			}
		}
	}

	// The source goes away.
	moved := g.bare + ".moved"
	if err := os.Rename(g.bare, moved); err != nil {
		t.Fatal(err)
	}
	failedAt := time.Now()
	waitFor("failing", func() bool { return strings.Contains(scrape(t, s.base), "kubeplan_source_failing 1") })
	runs := s.rs.len()
	rec := ""
	waitFor("recorded on the parent", func() bool { rec = annotation(); return rec != "" })
	sf := apply.ReadSourceFailing(rec)
	if sf == nil || sf.Reason != serve.SourceNotFound || !strings.Contains(sf.Message, "git source") {
		t.Errorf("kubeplan.dev/source-failing = %s", rec)
	}
	if since, err := time.Parse(time.RFC3339, sf.Since); err != nil || since.Before(failedAt.Add(-time.Second)) || since.After(time.Now()) {
		t.Errorf("since %q (moved at %s)", sf.Since, failedAt)
	}
	expectEvent(t, c, ns, serve.ReasonSourceFailed, "Warning", "git source failing since "+sf.Since+" (not-found)")
	m := scrape(t, s.base)
	if !strings.Contains(m, `kubeplan_source_failures_total{reason="not-found"}`) || strings.Contains(m, "kubeplan_source_failing_since_timestamp_seconds 0\n") {
		t.Errorf("metrics while failing:\n%s", grepLines(m, "kubeplan_source"))
	}

	// kubeplan status: the last revision applied, and since when the
	// source fails, as text and JSON.
	cl := s.client()
	parent, _ := applyset.ParseParentFlag("configmap/app-set", ns)
	st, err := apply.ReadStatus(context.Background(), cl, parent, nil)
	if err != nil {
		t.Fatal(err)
	}
	var text, js bytes.Buffer
	if err := render.Status(&text, "text", st); err != nil {
		t.Fatal(err)
	}
	if err := render.Status(&js, "json", st); err != nil {
		t.Fatal(err)
	}
	flat := strings.Join(strings.Fields(text.String()), " ")
	if !strings.Contains(flat, "Revision: "+first) || !strings.Contains(flat, "Source failing: since "+sf.Since+" (not-found): git source") {
		t.Errorf("status text:\n%s", text.String())
	}
	if !strings.Contains(js.String(), `"sourceFailing": {`) || !strings.Contains(js.String(), `"reason": "not-found"`) {
		t.Errorf("status json:\n%s", js.String())
	}

	// Rounds go on failing: no run, no write (the Event and record are
	// written once).
	waitFor("a failing notification", func() bool { return len(hb.events()) == 1 })
	writes := cl.Requests.Writes()
	time.Sleep(3500 * time.Millisecond) // three rounds at least
	if got := s.rs.len(); got != runs {
		t.Errorf("%d runs while the source failed", got-runs)
	}
	if w := cl.Requests.Writes(); w != writes {
		t.Errorf("%d writes while the source failed", w-writes)
	}
	if m := scrape(t, s.base); strings.Contains(m, `kubeplan_source_failures_total{reason="not-found"} 1`+"\n") {
		t.Errorf("the failing rounds are not counted:\n%s", grepLines(m, "kubeplan_source"))
	}
	if c := countEvents(t, c, ns, serve.ReasonSourceFailed); c != 1 {
		t.Errorf("%d SourceFailed Events, want 1", c)
	}

	// The source comes back.
	if err := os.Rename(moved, g.bare); err != nil {
		t.Fatal(err)
	}
	waitFor("recovered", func() bool { return strings.Contains(scrape(t, s.base), "kubeplan_source_failing 0") })
	waitFor("the record removed", func() bool { return annotation() == "" })
	expectEvent(t, c, ns, serve.ReasonSourceRecovered, "Normal", "git source fetched again (it failed since "+sf.Since+"), at revision "+short(first))
	_, _ = s.rs.wait(t, runs, "after the recovery", func(r serve.RunResult) bool { return r.Err == nil })
	waitFor("a recovered notification", func() bool { return len(hb.events()) == 2 })
	time.Sleep(1500 * time.Millisecond)
	evs := hb.events()
	if len(evs) != 2 || evs[0].Kind != notify.KindFailing || evs[0].Project != serve.SourceProject || !strings.Contains(evs[0].Error, "git source") ||
		evs[1].Kind != notify.KindRecovered || evs[1].Project != serve.SourceProject {
		t.Errorf("notifications: %+v", evs)
	}
	if m := scrape(t, s.base); !strings.Contains(m, "kubeplan_source_failing_since_timestamp_seconds 0\n") {
		t.Errorf("metrics after the recovery:\n%s", grepLines(m, "kubeplan_source"))
	}
}
