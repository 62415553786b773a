package main

import (
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// A no-op run may move the parent's checked-at time; any other change to
// an object, the parent's included, counts as a write.
func TestDiffSnapshotsTellsCheckedAtFromWrites(t *testing.T) {
	obj := func(rv, checked, data string) *unstructured.Unstructured {
		u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": "parent", "resourceVersion": rv}, "data": map[string]any{"k": data}}}
		if checked != "" {
			u.SetAnnotations(map[string]string{checkedAt: checked})
		}
		return u
	}
	snap := func(u *unstructured.Unstructured) snapshot {
		return snapshot{RV: map[string]string{"ConfigMap/parent": u.GetResourceVersion()},
			FP: map[string]string{"ConfigMap/parent": fingerprint(u)}, MaxRV: 0}
	}
	before := snap(obj("1", "2026-12-02T10:00:00Z", "a"))
	d := diffSnapshots(before, snap(obj("2", "2026-12-02T10:05:00Z", "a")))
	if !d.unchanged() || len(d.Rechecked) != 1 || len(d.Changed) != 0 {
		t.Errorf("checked-at moved only: %+v, unchanged %v", d, d.unchanged())
	}
	d = diffSnapshots(before, snap(obj("2", "2026-12-02T10:05:00Z", "b")))
	if d.unchanged() || len(d.Changed) != 1 {
		t.Errorf("data changed with checked-at: %+v, unchanged %v", d, d.unchanged())
	}
}
