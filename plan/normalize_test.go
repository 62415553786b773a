package plan

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"
)

func TestNormalizeDeployment(t *testing.T) {
	in := decodeFixture(t, liveDeployment)
	orig := decodeFixture(t, liveDeployment)
	got := Normalize(in)

	if !reflect.DeepEqual(in, orig) {
		t.Fatal("Normalize changed its argument")
	}
	if _, ok := got["status"]; ok {
		t.Error("status kept")
	}
	md := at(got, "metadata")
	for _, f := range serverMetadata {
		if _, ok := md[f]; ok {
			t.Errorf("metadata.%s kept", f)
		}
	}
	if _, ok := md["annotations"]; ok {
		t.Errorf("annotations left behind: %v", md["annotations"])
	}
	if md["name"] != "web" || md["namespace"] != "shop" {
		t.Errorf("name/namespace lost: %v", md)
	}
	labels := at(got, "metadata", "labels")
	if labels["applyset.kubernetes.io/part-of"] == nil || labels["app"] != "web" {
		t.Errorf("labels changed: %v", labels)
	}
	if r := at(got, "spec")["replicas"]; r != int64(2) {
		t.Errorf("replicas = %#v, want int64(2)", r)
	}
	// A deep copy: changing the result randLeaves the input alone.
	at(got, "spec", "template", "metadata", "labels")["app"] = "changed"
	if at(in, "spec", "template", "metadata", "labels")["app"] != "web" {
		t.Error("result shares maps with the input")
	}
	if Normalize(nil) != nil {
		t.Error("Normalize(nil) != nil")
	}
}

func TestNormalizeRules(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"controller annotation dropped, user annotations kept",
			`{"kind":"Deployment","metadata":{"name":"a","annotations":{"deployment.kubernetes.io/revision":"7","team":"x","kubectl.kubernetes.io/last-applied-configuration":"{}"}}}`,
			`{"kind":"Deployment","metadata":{"name":"a","annotations":{"team":"x","kubectl.kubernetes.io/last-applied-configuration":"{}"}}}`},
		{"empty annotations and labels removed",
			`{"kind":"ConfigMap","metadata":{"name":"a","annotations":{},"labels":{}}}`,
			`{"kind":"ConfigMap","metadata":{"name":"a"}}`},
		{"null annotations removed",
			`{"kind":"ConfigMap","metadata":{"name":"a","annotations":null}}`,
			`{"kind":"ConfigMap","metadata":{"name":"a"}}`},
		{"deletion fields and selfLink dropped",
			`{"kind":"Pod","metadata":{"name":"a","deletionTimestamp":"2026-01-01T00:00:00Z","deletionGracePeriodSeconds":30,"selfLink":"/api/v1/x","finalizers":["x/y"]}}`,
			`{"kind":"Pod","metadata":{"name":"a","finalizers":["x/y"]}}`},
		{"status dropped, nested metadata untouched",
			`{"kind":"Deployment","metadata":{"name":"a"},"spec":{"template":{"metadata":{"creationTimestamp":null,"annotations":{}}}},"status":{"replicas":1}}`,
			`{"kind":"Deployment","metadata":{"name":"a"},"spec":{"template":{"metadata":{"creationTimestamp":null,"annotations":{}}}}}`},
		{"no metadata",
			`{"kind":"List","items":[]}`,
			`{"kind":"List","items":[]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Normalize(decodeFixture(t, tt.in))
			want := canonMap(decodeFixture(t, tt.want))
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Normalize = %s, want %s", jsonText(t, got), jsonText(t, want))
			}
		})
	}
}

func TestNormalizeNumbers(t *testing.T) {
	in := map[string]any{
		"a": 3.0, "b": int64(3), "c": 3, "d": int32(3), "e": json.Number("3"), "f": json.Number("3.0"),
		"g": 2.5, "h": float32(0.5), "i": uint64(math.MaxUint64), "j": 1e300, "k": []string{"x"},
		"l": map[string]string{"k": "v"}, "m": []any(nil), "n": map[string]any(nil), "o": -0.0,
		"p": math.NaN(), "q": uint8(7), "r": "\xffx",
	}
	want := map[string]any{
		"a": int64(3), "b": int64(3), "c": int64(3), "d": int64(3), "e": int64(3), "f": int64(3),
		"g": 2.5, "h": 0.5, "i": float64(math.MaxUint64), "j": 1e300, "k": []any{"x"},
		"l": map[string]any{"k": "v"}, "m": nil, "n": nil, "o": int64(0),
		"p": "NaN", "q": int64(7), "r": "\uFFFDx",
	}
	if got := Normalize(in); !reflect.DeepEqual(got, want) {
		t.Errorf("Normalize = %#v\nwant %#v", got, want)
	}
}
