package health

import (
	"errors"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeplan/kubeplan/internal/kube"
)

// TestHealthStateEvents drives the state with the events a reader sends.
func TestHealthStateEvents(t *testing.T) {
	gvr := schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	refs := []kube.Ref{
		{Group: "apps", Version: "v1", Kind: "Deployment", Resource: "deployments", Namespace: "ns", Name: "web"},
		{Group: "apps", Version: "v1", Kind: "Deployment", Resource: "deployments", Namespace: "ns", Name: "api"},
	}
	s := newHealthState(nil, refs, "")
	var groups []*healthGroup
	s.startGroup = func(g *healthGroup) { groups = append(groups, g) }
	var podsRead []string
	s.readPods = func(ns string) { podsRead = append(podsRead, ns) }
	s.locate([]int{0, 1})
	if len(groups) != 1 || groups[0].gvr != gvr || groups[0].ns != "ns" || len(groups[0].names) != 2 {
		t.Fatalf("groups %+v", groups)
	}
	g := groups[0]
	want := func(i int, status, msg string) {
		t.Helper()
		if r := s.result(i); r.Status != status || r.Message != msg {
			t.Errorf("%s: got %s %q, want %s %q", refs[i], r.Status, r.Message, status, msg)
		}
	}
	want(0, Unknown, healthNoAnswer)

	s.apply(healthEvent{g: g, err: errors.New("connection refused")})
	want(0, Unknown, "connection refused")

	ready := healthObj(t, healthDeploy+`status: {observedGeneration: 2, replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3,
  conditions: [{type: Available, status: "True"}, {type: Progressing, status: "True", reason: NewReplicaSetAvailable}]}
`)
	other := ready.DeepCopy()
	other.SetNamespace("elsewhere")
	s.apply(healthEvent{g: g, listed: true, objs: []*unstructured.Unstructured{ready, other}})
	if r := s.result(0); r.Status != Current {
		t.Errorf("web: %+v", r)
	}
	want(1, NotFound, "not found")
	if len(podsRead) != 0 {
		t.Errorf("pods read for a ready Deployment: %v", podsRead)
	}

	slow := healthObj(t, healthDeploy)
	slow.SetName("api")
	s.apply(healthEvent{g: g, typ: watch.Added, obj: slow})
	want(1, InProgress, "0/3 available: Replicas: 0/3")
	if len(podsRead) != 1 || podsRead[0] != "ns" {
		t.Errorf("pods of ns not read for a Deployment not ready: %v", podsRead)
	}
	pod := healthObj(t, healthPod("api-1", `containerStatuses: [{name: main, state: {waiting: {reason: ImagePullBackOff}}}]`))
	pod.SetNamespace("ns")
	s.apply(healthEvent{g: &healthGroup{gvr: healthPodsGVR, ns: "ns"}, listed: true, objs: []*unstructured.Unstructured{pod}})
	want(1, InProgress, "0/3 available: ImagePullBackOff")

	s.apply(healthEvent{g: g, typ: watch.Deleted, obj: slow})
	want(1, NotFound, "not found")

	forbidden := apierrors.NewForbidden(schema.GroupResource{Group: "apps", Resource: "deployments"}, "api", errors.New("no"))
	s.apply(healthEvent{g: g, name: "api", err: forbidden})
	if r := s.result(1); r.Status != Failed {
		t.Errorf("forbidden GET: %+v", r)
	}
}
