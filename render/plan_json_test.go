package render

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/plan"
)

func TestPlanJSONGolden(t *testing.T) {
	golden(t, "plan-mixed.json.golden", renderPlan(t, "json", planFixture(), PlanOptions{}))
	golden(t, "plan-empty.json.golden", renderPlan(t, "json", emptyPlan(), PlanOptions{}))
}

func TestPlanJSONRoundTrip(t *testing.T) {
	p := planFixture()
	var doc struct {
		Version   int          `json:"version"`
		Summary   plan.Summary `json:"summary"`
		Namespace string       `json:"namespace"`
		Revision  string       `json:"revision"`
		ApplySet  *plan.Parent `json:"applyset"`
		Changes   []struct {
			Ref      plan.Ref     `json:"ref"`
			Action   plan.Action  `json:"action"`
			Reason   string       `json:"reason"`
			Source   plan.Source  `json:"source"`
			Diff     string       `json:"diff"`
			Drift    []plan.Drift `json:"drift"`
			AfterCRD bool         `json:"afterCRD"`
			WaitsFor string       `json:"waitsFor"`
		} `json:"changes"`
	}
	dec := json.NewDecoder(strings.NewReader(string(renderPlan(t, "json", p, PlanOptions{}))))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if doc.Version != 1 || doc.Namespace != "store" || doc.Revision != "3f2c1e0" {
		t.Errorf("version, namespace, revision = %d, %q, %q", doc.Version, doc.Namespace, doc.Revision)
	}
	if doc.Summary != p.Summary() {
		t.Errorf("summary = %+v, want %+v", doc.Summary, p.Summary())
	}
	if !reflect.DeepEqual(doc.ApplySet, p.Parent) {
		t.Errorf("applyset = %+v, want %+v", doc.ApplySet, p.Parent)
	}
	want := sortedChanges(p)
	if len(doc.Changes) != len(want) {
		t.Fatalf("%d changes, want %d", len(doc.Changes), len(want))
	}
	for i, c := range doc.Changes {
		w := want[i]
		w.Object, w.LiveResourceVersion = nil, ""
		got := plan.Change{Ref: c.Ref, Action: c.Action, Reason: c.Reason, Source: c.Source, Diff: c.Diff, Drift: c.Drift, AfterCRD: c.AfterCRD, WaitsFor: c.WaitsFor}
		if !reflect.DeepEqual(got, w) {
			t.Errorf("change %d did not round-trip:\ngot  %+v\nwant %+v", i, got, w)
		}
	}
}

// TestPlanJSONKeys: changes carry only the documented keys (never object
// or liveResourceVersion) and are always an array.
func TestPlanJSONKeys(t *testing.T) {
	allowed := []string{"ref", "action", "reason", "source", "diff", "drift", "afterCRD", "waitsFor"}
	for _, p := range []*plan.Plan{planFixture(), emptyPlan(), {Changes: []plan.Change{}}} {
		var doc struct {
			Changes json.RawMessage `json:"changes"`
		}
		if err := json.Unmarshal(renderPlan(t, "json", p, PlanOptions{}), &doc); err != nil {
			t.Fatal(err)
		}
		var changes []map[string]json.RawMessage
		if err := json.Unmarshal(doc.Changes, &changes); err != nil || changes == nil {
			t.Fatalf("changes = %s, want an array (%v)", doc.Changes, err)
		}
		for _, c := range changes {
			for k := range c {
				if !slices.Contains(allowed, k) {
					t.Errorf("change has undocumented key %q", k)
				}
			}
		}
	}
}
