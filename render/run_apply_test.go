package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestRunApplyGolden(t *testing.T) {
	for _, format := range ApplyFormats() {
		var b bytes.Buffer
		if err := RunApply(&b, format, appliedFixture(), RunOptions{}); err != nil {
			t.Fatal(err)
		}
		golden(t, "run-apply."+format+".golden", b.Bytes())
	}
	var b bytes.Buffer
	if err := RunApplyMarkdown(&b, appliedFixture(), RunOptions{}); err != nil {
		t.Fatal(err)
	}
	golden(t, "run-apply.markdown.golden", b.Bytes())
	if err := RunApply(&b, "yaml", appliedFixture(), RunOptions{}); err == nil {
		t.Error("RunApply(yaml) succeeded")
	}
}

func TestRunApplySummary(t *testing.T) {
	want := "Total: 5 projects, 2 applied, 2 failed, 1 skipped: 1 created, 1 configured, 1 pruned, 2 unchanged."
	if got := RunApplySummary(appliedFixture()); got != want {
		t.Errorf("RunApplySummary = %q\nwant               %q", got, want)
	}
}

// TestRunApplyTextIsApplyText: each project's section holds what apply
// prints for it alone.
func TestRunApplyTextIsApplyText(t *testing.T) {
	var all bytes.Buffer
	r := appliedFixture()
	if err := RunApply(&all, "text", r, RunOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, p := range r.Projects {
		if p.Result == nil {
			continue
		}
		var one bytes.Buffer
		_ = Apply(&one, "text", ApplyReport{Result: p.Result})
		if !strings.Contains(all.String(), one.String()) {
			t.Errorf("%s: missing\n%s", p.Project.Name, one.String())
		}
	}
}

func TestRunApplyJSON(t *testing.T) {
	var b bytes.Buffer
	if err := RunApply(&b, "json", appliedFixture(), RunOptions{}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Projects []struct {
			Name   string
			Status string
			Result *struct {
				Objects []map[string]any
				InSync  bool
			}
		}
		Total map[string]int
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Total["applied"] != 2 || doc.Total["failed"] != 2 || len(doc.Projects) != 5 {
		t.Errorf("doc = %+v", doc)
	}
	if db := doc.Projects[1]; db.Result == nil || db.Result.Objects == nil || len(db.Result.Objects) != 0 {
		t.Errorf("failed project with an empty result: %+v", db)
	}
	if skipped := doc.Projects[4]; skipped.Result != nil {
		t.Errorf("skipped project has a result: %+v", skipped)
	}
}

func TestRunApplyMarkdownLimit(t *testing.T) {
	for limit := 1500; limit < 4000; limit += 111 {
		var b bytes.Buffer
		if err := RunApplyMarkdown(&b, appliedFixture(), RunOptions{MaxBytes: limit}); err != nil {
			t.Fatal(err)
		}
		if b.Len() > limit || !strings.Contains(b.String(), "| `shop-worker-prod` |") {
			t.Errorf("limit %d: %d bytes\n%s", limit, b.Len(), b.String())
		}
	}
}

func TestRunStatusGolden(t *testing.T) {
	for _, format := range []string{"text", "json"} {
		var b bytes.Buffer
		if err := RunStatus(&b, format, runStatusFixture()); err != nil {
			t.Fatal(err)
		}
		golden(t, "run-status."+format+".golden", b.Bytes())
	}
	var b bytes.Buffer
	if err := RunStatus(&b, "yaml", runStatusFixture()); err == nil {
		t.Error("RunStatus(yaml) succeeded")
	}
}
