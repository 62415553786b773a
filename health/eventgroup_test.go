package health

import (
	"context"
	"fmt"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"

	"github.com/kubeplan/kubeplan/internal/kube"
)

// healthWarning is a Warning event (events.k8s.io) about kind/name (whose
// UID is uid) at second sec, with count times in its series.
func healthWarning(t *testing.T, sec int, kind, name, uid, reason, note string, count int) runtime.Object {
	t.Helper()
	series := ""
	if count > 1 {
		series = fmt.Sprintf("series: {count: %d, lastObservedTime: \"2026-12-02T01:00:%02dZ\"}\n", count, sec)
	}
	return healthObj(t, fmt.Sprintf(`apiVersion: events.k8s.io/v1
kind: Event
metadata: {name: e%d, namespace: ns, creationTimestamp: "2026-12-02T01:00:%02dZ"}
type: Warning
reason: %s
note: %q
regarding: {kind: %s, name: %s, namespace: ns, uid: %q}
`, sec, sec, reason, note, kind, name, uid)+series)
}

// healthEventsOf is what a diagnosis lists of events about objects.
func healthEventsOf(t *testing.T, objects map[string]bool, events ...runtime.Object) []Event {
	t.Helper()
	dyn := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), map[schema.GroupVersionResource]string{
		healthEventsGVR: "EventList", healthSecretsGVR: "SecretList",
	}, events...)
	d := newDiagnoser(&kube.Client{Dynamic: dyn}, WaitOptions{})
	return d.eventsOf(context.Background(), "ns", objects)
}

// One cause across pods is one event line with the number of pods and
// the summed count, the pod's name and UID in its note replaced; distinct
// notes stay distinct, an event of one pod stays as it is, as do the
// owners' events.
func TestDiagnosisEventsGroupedAcrossPods(t *testing.T) {
	backOff := func(sec int, pod, uid string, count int) runtime.Object {
		return healthWarning(t, sec, "Pod", pod, uid, "BackOff", "Back-off restarting failed container main in pod "+pod+"_ns("+uid+")", count)
	}
	objects := map[string]bool{"Deployment/web": true, "ReplicaSet/web-7d9c": true,
		"Pod/web-7d9c-aaaaa": true, "Pod/web-7d9c-bbbbb": true, "Pod/web-7d9c-ccccc": true}
	got := healthEventsOf(t, objects,
		backOff(1, "web-7d9c-aaaaa", "uid-a", 2),
		healthWarning(t, 2, "ReplicaSet", "web-7d9c", "uid-rs", "FailedCreate", "Error creating: pods \"web-7d9c-ddddd\" is forbidden: exceeded quota", 1),
		backOff(3, "web-7d9c-bbbbb", "uid-b", 3),
		healthWarning(t, 4, "Pod", "web-7d9c-aaaaa", "uid-a", "Failed", "Error: secret \"db\" not found", 1),
		backOff(5, "web-7d9c-ccccc", "uid-c", 1),
		backOff(6, "web-7d9c-bbbbb", "uid-b", 1),
		healthWarning(t, 7, "Pod", "other-1", "uid-o", "BackOff", "Back-off restarting failed container main in pod other-1_ns(uid-o)", 1),
	)
	want := []Event{
		{Object: "ReplicaSet/web-7d9c", Reason: "FailedCreate", Note: "Error creating: pods \"web-7d9c-ddddd\" is forbidden: exceeded quota", Count: 1},
		{Object: "Pod/web-7d9c-aaaaa", Reason: "Failed", Note: "Error: secret \"db\" not found", Count: 1},
		{Object: "Pod/web-7d9c-*", Reason: "BackOff", Note: "Back-off restarting failed container main in pod web-7d9c-*_ns(*)", Count: 7, Pods: 3},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("events:\n got %+v\nwant %+v", got, want)
	}

	// One pod's events stay that pod's, counted.
	got = healthEventsOf(t, objects, backOff(1, "web-7d9c-aaaaa", "uid-a", 2), backOff(2, "web-7d9c-aaaaa", "uid-a", 1))
	if len(got) != 1 || got[0].Object != "Pod/web-7d9c-aaaaa" || got[0].Pods != 0 || got[0].Count != 3 ||
		got[0].Note != "Back-off restarting failed container main in pod web-7d9c-aaaaa_ns(uid-a)" {
		t.Errorf("one pod's events = %+v", got)
	}
}

// An owner's events that differ only in the generated name of the pod it
// tried to create (and the recorder's "combined" prefix) are one, with
// the summed count; its other notes stay distinct, and a single event
// keeps its note.
func TestDiagnosisEventsGroupedAcrossGeneratedNames(t *testing.T) {
	quota := func(sec int, pod, prefix string, count int) runtime.Object {
		return healthWarning(t, sec, "ReplicaSet", "web-7b94b6f5d4", "", "FailedCreate",
			prefix+`Error creating: pods "`+pod+`" is forbidden: exceeded quota: no-pods, requested: pods=1`, count)
	}
	objects := map[string]bool{"Deployment/web": true, "ReplicaSet/web-7b94b6f5d4": true}
	got := healthEventsOf(t, objects,
		quota(1, "web-7b94b6f5d4-9hv56", "", 1),
		quota(2, "web-7b94b6f5d4-wnhms", "", 1),
		healthWarning(t, 3, "ReplicaSet", "web-7b94b6f5d4", "", "FailedCreate", `Error creating: pods "web-7b94b6f5d4-xcgnw" is forbidden: violates PodSecurity`, 1),
		quota(4, "web-7b94b6f5d4-lqp7p", eventCombined, 3),
	)
	want := []Event{
		{Object: "ReplicaSet/web-7b94b6f5d4", Reason: "FailedCreate", Note: `Error creating: pods "web-7b94b6f5d4-xcgnw" is forbidden: violates PodSecurity`, Count: 1},
		{Object: "ReplicaSet/web-7b94b6f5d4", Reason: "FailedCreate", Note: `Error creating: pods "web-7b94b6f5d4-*" is forbidden: exceeded quota: no-pods, requested: pods=1`, Count: 5},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("events:\n got %+v\nwant %+v", got, want)
	}
}

// The last diagnoseMaxEvents are kept after grouping: 12 causes across 2
// pods each (24 events) are the last 10 causes.
func TestDiagnosisEventsLastAfterGrouping(t *testing.T) {
	objects := map[string]bool{"Pod/db-0": true, "Pod/db-1": true}
	var events []runtime.Object
	for i := range 12 {
		for j, pod := range []string{"db-0", "db-1"} {
			events = append(events, healthWarning(t, 2*i+j, "Pod", pod, "uid-"+pod, "Unhealthy", fmt.Sprintf("probe %d failed on %s", i, pod), 1))
		}
	}
	got := healthEventsOf(t, objects, events...)
	if len(got) != diagnoseMaxEvents {
		t.Fatalf("%d events: %+v", len(got), got)
	}
	for k, ev := range got {
		if want := fmt.Sprintf("probe %d failed on db-*", k+2); ev.Object != "Pod/db-*" || ev.Pods != 2 || ev.Count != 2 || ev.Note != want {
			t.Errorf("event %d = %+v, want note %q", k, ev, want)
		}
	}
}
