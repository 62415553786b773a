package policies

import (
	"testing"

	"github.com/kubeplan/kubeplan/manifest"
)

func TestAll(t *testing.T) {
	all := All()
	if len(all) == 0 {
		t.Fatal("no rules")
	}
	for i, r := range all {
		if r.ID == "" || r.Description == "" || r.Check == nil {
			t.Errorf("rule %d (%q) lacks an id, a description or a check", i, r.ID)
		}
		if r.Severity != SeverityError && r.Severity != SeverityWarning {
			t.Errorf("rule %q severity %q, want error or warning", r.ID, r.Severity)
		}
		if i > 0 && all[i-1].ID >= r.ID {
			t.Errorf("rules not sorted or ids not unique: %q before %q", all[i-1].ID, r.ID)
		}
		if got, ok := ByID(r.ID); !ok || got.ID != r.ID {
			t.Errorf("ByID(%q) = %q, %v", r.ID, got.ID, ok)
		}
	}
	if _, ok := ByID("no-such-rule"); ok {
		t.Error("ByID found a rule that does not exist")
	}
	all[0].ID = "changed"
	if All()[0].ID == "changed" {
		t.Error("All returns the registry itself, not a copy")
	}
}

// TestOddShapes feeds every rule objects of unexpected shapes: none may panic.
func TestOddShapes(t *testing.T) {
	src := `
apiVersion: v1
kind: Pod
metadata: {name: a, labels: [x]}
spec: {containers: nope, initContainers: [1, null, {image: 5}, {image: ""}], ephemeralContainers: {a: b}}
---
apiVersion: apps/v1
kind: Deployment
metadata: [1, 2]
spec: {replicas: "0", template: [1]}
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: c}
spec: {jobTemplate: {spec: {template: {spec: null}}}}
---
apiVersion: v1
kind: Secret
metadata: {name: s}
data: 12
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: s}
spec: 7
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: h}
spec: {scaleTargetRef: {kind: StatefulSet, name: [s]}}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: h2}
spec: {scaleTargetRef: 5}
---
apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata: {name: h3}
spec: {scaleTargetRef: {kind: StatefulSet, name: s}}
`
	objs := parse(t, "odd.yaml", src)
	objs = append(objs, nil, &manifest.Object{}, &manifest.Object{Kind: "Pod", APIVersion: "v1"})
	for _, r := range All() {
		r.Check(objs, Options{Namespace: "ns"})
		r.Check(nil, Options{})
	}
}
