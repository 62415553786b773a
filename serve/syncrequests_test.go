package serve

import (
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/internal/applyset"
)

// TestSyncRequestsTakeAndDone: a request is taken once (the same or an
// older one again is not new, a newer one is); a run that began before
// serve took it does not answer it, one that began after does, once.
func TestSyncRequestsTakeAndDone(t *testing.T) {
	var q syncRequests
	as := applyset.Parent{Kind: "ConfigMap", Name: "web-set", Namespace: "shop"}
	t0 := time.Now()
	if !q.take("web", "2026-12-02T10:00:00.000000000Z", as, t0) {
		t.Fatal("a first request is new")
	}
	if q.take("web", "2026-12-02T10:00:00.000000000Z", as, t0) || q.take("web", "2026-12-02T09:59:59Z", as, t0) {
		t.Fatal("the same request, or an older one, is not new")
	}
	if _, ok := q.done("web", t0.Add(-time.Second)); ok {
		t.Fatal("a run that began before the request was taken answered it")
	}
	if !q.take("web", "2026-12-02T10:00:01Z", as, t0.Add(time.Second)) {
		t.Fatal("a newer request is new")
	}
	r, ok := q.done("web", t0.Add(2*time.Second))
	if !ok || r.at != "2026-12-02T10:00:01Z" || r.parent != as {
		t.Fatalf("the run after the request: %+v %v", r, ok)
	}
	if _, ok := q.done("web", t0.Add(3*time.Second)); ok {
		t.Fatal("a request is answered once")
	}
}

// TestNoteSuspension: a suspension a poll saw counts for two polls; the
// poll that no longer sees it reports the project resumed, once.
func TestNoteSuspension(t *testing.T) {
	var q syncRequests
	as := applyset.Parent{Kind: "ConfigMap", Name: "web-set", Namespace: "shop"}
	t0 := time.Now()
	if q.noteSuspension("web", as, "", t0) {
		t.Fatal("never suspended: not resumed")
	}
	if q.noteSuspension("web", as, `{"by":"alice","reason":"incident 123"}`, t0) {
		t.Fatal("suspended: not resumed")
	}
	if s := q.suspendedNow("web", t0.Add(syncPollEvery)); s == nil || s.s.By != "alice" || s.parent != as {
		t.Fatalf("suspended as seen: %+v", s)
	}
	if s := q.suspendedNow("web", t0.Add(3*syncPollEvery)); s != nil {
		t.Fatal("a suspension not seen for three polls still counts")
	}
	if !q.noteSuspension("web", as, "", t0.Add(syncPollEvery)) {
		t.Fatal("the poll that no longer sees the suspension reports web resumed")
	}
	if q.noteSuspension("web", as, "", t0.Add(2*syncPollEvery)) || q.suspendedNow("web", t0.Add(2*syncPollEvery)) != nil {
		t.Fatal("resumed once")
	}
}
