package render

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/lint"
)

func TestJSONGolden(t *testing.T) {
	golden(t, "lint.json.golden", render(t, "json", mixedReport(), testOpts))
	golden(t, "lint-empty.json.golden", render(t, "json", emptyReport(), testOpts))
}

func TestJSONRoundTrip(t *testing.T) {
	rep := mixedReport()
	var doc struct {
		Version int `json:"version"`
		Summary struct {
			Errors, Warnings, Infos, Files, Objects int
		} `json:"summary"`
		Findings []lint.Finding `json:"findings"`
	}
	dec := json.NewDecoder(strings.NewReader(string(render(t, "json", rep, testOpts))))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if doc.Version != 1 {
		t.Errorf("version = %d, want 1", doc.Version)
	}
	s := doc.Summary
	if s.Errors != 3 || s.Warnings != 2 || s.Infos != 1 || s.Files != 3 || s.Objects != 5 {
		t.Errorf("summary = %+v", s)
	}
	if !reflect.DeepEqual(doc.Findings, rep.Findings) {
		t.Errorf("findings did not round-trip:\ngot  %+v\nwant %+v", doc.Findings, rep.Findings)
	}
}

func TestJSONEmptyFindingsIsArray(t *testing.T) {
	for _, rep := range []lint.Report{{}, {Findings: []lint.Finding{}}} {
		var doc map[string]json.RawMessage
		if err := json.Unmarshal(render(t, "json", rep, testOpts), &doc); err != nil {
			t.Fatal(err)
		}
		if got := string(doc["findings"]); got != "[]" {
			t.Errorf("findings = %s, want []", got)
		}
	}
}
