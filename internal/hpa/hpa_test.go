package hpa

import "testing"

func TestTarget(t *testing.T) {
	hpa := func(ref map[string]any) map[string]any {
		return map[string]any{"spec": map[string]any{"scaleTargetRef": ref}}
	}
	cases := []struct {
		name string
		obj  map[string]any
		want Workload
		ok   bool
	}{
		{"deployment", hpa(map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"}), Workload{"Deployment", "ns", "web"}, true},
		{"statefulset", hpa(map[string]any{"apiVersion": "apps/v1", "kind": "StatefulSet", "name": "db"}), Workload{"StatefulSet", "ns", "db"}, true},
		{"no apiVersion", hpa(map[string]any{"kind": "Deployment", "name": "web"}), Workload{"Deployment", "ns", "web"}, true},
		{"other group", hpa(map[string]any{"apiVersion": "example.com/v1", "kind": "Deployment", "name": "web"}), Workload{}, false},
		{"replicaset", hpa(map[string]any{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "rs"}), Workload{}, false},
		{"no name", hpa(map[string]any{"apiVersion": "apps/v1", "kind": "Deployment"}), Workload{}, false},
		{"no ref", map[string]any{"spec": map[string]any{}}, Workload{}, false},
		{"no spec", map[string]any{}, Workload{}, false},
	}
	for _, tc := range cases {
		got, ok := Target(tc.obj, "ns")
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s: Target = %+v, %v; want %+v, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

func TestKinds(t *testing.T) {
	for _, av := range []string{"autoscaling/v1", "autoscaling/v2", "autoscaling/v2beta2"} {
		if !IsAutoscaler(av, "HorizontalPodAutoscaler") {
			t.Errorf("%s HorizontalPodAutoscaler not an autoscaler", av)
		}
	}
	if IsAutoscaler("example.com/v1", "HorizontalPodAutoscaler") || IsAutoscaler("autoscaling/v2", "Scale") {
		t.Error("foreign kinds taken for autoscalers")
	}
	if !Scalable("apps/v1", "Deployment") || !Scalable("apps/v1", "StatefulSet") {
		t.Error("apps workloads not scalable")
	}
	if Scalable("apps/v1", "DaemonSet") || Scalable("extensions/v1beta1", "Deployment") || Scalable("v1", "Deployment") {
		t.Error("other kinds taken as scalable")
	}
}
