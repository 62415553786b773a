package render

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/plan"
)

// TestPlanJSONStages decodes the stages and each change's stage of the
// plan JSON, refusing fields the documented shape does not have.
func TestPlanJSONStages(t *testing.T) {
	p := stagedPlan()
	var doc struct {
		Version int `json:"version"`
		Stages  []struct {
			Name     string     `json:"name"`
			Phase    string     `json:"phase"`
			Wave     int        `json:"wave"`
			Step     int        `json:"step"`
			OnFail   bool       `json:"onFail"`
			Members  []plan.Ref `json:"members"`
			WaitsFor []string   `json:"waitsFor"`
		} `json:"stages"`
		Changes []struct {
			Ref    plan.Ref    `json:"ref"`
			Action plan.Action `json:"action"`
			Stage  string      `json:"stage"`
		} `json:"changes"`
	}
	raw := renderPlan(t, "json", p, PlanOptions{})
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Version != PlanJSONVersion || PlanJSONVersion != 1 {
		t.Errorf("version = %d: stages are additive fields, the document stays version 1", doc.Version)
	}
	if len(doc.Stages) != len(p.Stages) {
		t.Fatalf("%d stages, want %d:\n%s", len(doc.Stages), len(p.Stages), raw)
	}
	for i, s := range doc.Stages {
		w := p.Stages[i]
		if s.Name != w.Name || s.Phase != w.Phase || s.Wave != w.Wave || s.Step != w.Step || s.OnFail != w.OnFail ||
			!slices.Equal(s.Members, w.Members) || !slices.Equal(s.WaitsFor, w.WaitsFor) && len(w.WaitsFor) > 0 {
			t.Errorf("stage %d = %+v, want %+v", i, s, w)
		}
	}
	if doc.Stages[1].WaitsFor == nil || len(doc.Stages[1].WaitsFor) != 0 || !strings.Contains(string(raw), `"waitsFor": []`) {
		t.Errorf("a stage that writes nothing has waitsFor %v, want []:\n%s", doc.Stages[1].WaitsFor, raw)
	}
	if !doc.Stages[4].OnFail || doc.Stages[3].OnFail {
		t.Errorf("onFail = %v, %v; want only the SyncFail stage", doc.Stages[3].OnFail, doc.Stages[4].OnFail)
	}
	stageOf := map[string]string{}
	for _, c := range doc.Changes {
		stageOf[c.Ref.String()] = c.Stage
	}
	for ref, want := range map[string]string{"job.batch/migrate": "PreSync hooks", "deployment.apps/web": "wave 0",
		"job.batch/cleanup": "SyncFail hooks", "configmap/old-wave1": "wave 1", "configmap/manual": ""} {
		if got := stageOf[ref]; got != want {
			t.Errorf("%s: stage %q, want %q", ref, got, want)
		}
	}
	if plain := string(renderPlan(t, "json", planFixture(), PlanOptions{})); strings.Contains(plain, `"stage`) {
		t.Errorf("a plan without stages has stage fields:\n%s", plain)
	}
}
