package render

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/ghactions"
	"github.com/kubeplan/kubeplan/run"
)

func renderRun(t *testing.T, format string, r *run.Report, o RunOptions) string {
	t.Helper()
	var b bytes.Buffer
	if err := RunPlan(&b, format, r, o); err != nil {
		t.Fatalf("RunPlan(%s): %v", format, err)
	}
	return b.String()
}

func TestRunPlanGolden(t *testing.T) {
	o := RunOptions{SummaryURL: "https://github.com/acme/shop/actions/runs/4242"}
	for _, format := range RunPlanFormats() {
		got := renderRun(t, format, runFixture(), o)
		golden(t, "run."+format+".golden", []byte(got))
		for _, s := range planSecrets {
			if strings.Contains(got, s) {
				t.Errorf("%s: output contains the secret value %q", format, s)
			}
		}
	}
}

func TestRunPlanUnknownFormat(t *testing.T) {
	var b bytes.Buffer
	err := RunPlan(&b, "yaml", runFixture(), RunOptions{})
	if err == nil || !strings.Contains(err.Error(), "text, markdown, json") || b.Len() != 0 {
		t.Errorf("RunPlan(yaml): err = %v, wrote %q", err, b.String())
	}
	if err := RunPlan(&b, "text", nil, RunOptions{}); err == nil {
		t.Error("RunPlan(nil) succeeded")
	}
}

// TestRunPlanTextIsPlanText: each project's section is exactly what the
// single-project view prints, colour included.
func TestRunPlanTextIsPlanText(t *testing.T) {
	r := runFixture()
	for _, color := range []bool{false, true} {
		got := renderRun(t, "text", r, RunOptions{Color: color})
		for _, p := range r.Projects {
			if p.Plan == nil {
				continue
			}
			want := string(renderPlan(t, "text", p.Plan, PlanOptions{Color: color}))
			if !strings.Contains(got, want) {
				t.Errorf("color %v: the text of %s is not its plan's:\n%s", color, p.Project.Name, want)
			}
		}
		plain := regexp.MustCompile("\x1b\\[[0-9;]*m").ReplaceAllString(got, "")
		if color && plain != renderRun(t, "text", r, RunOptions{}) {
			t.Error("the coloured text without its escapes is not the plain text")
		}
	}
}

func TestRunSummary(t *testing.T) {
	want := "Total: 5 projects, 2 with changes, 1 failed, 1 skipped: 2 to add, 1 to change, 2 to prune, 2 unchanged, 1 drifted."
	if got := RunSummary(runFixture()); got != want {
		t.Errorf("RunSummary = %q\nwant        %q", got, want)
	}
	one := &run.Report{Projects: runFixture().Projects[3:4]}
	if got := RunSummary(one); got != "Total: 1 project, 0 with changes: 0 to add, 0 to change, 0 to prune, 1 unchanged." {
		t.Errorf("RunSummary(one) = %q", got)
	}
}

func TestRunPlanJSON(t *testing.T) {
	var doc struct {
		Version  int `json:"version"`
		Projects []struct {
			Name, Status, Error string
			Findings            []map[string]any
			Summary             *jsonPlanSummary
			Changes             []map[string]any
		}
		Total map[string]int
	}
	if err := json.Unmarshal([]byte(renderRun(t, "json", runFixture(), RunOptions{})), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Version != 1 || len(doc.Projects) != 5 || doc.Total["projects"] != 5 || doc.Total["failed"] != 1 || doc.Total["add"] != 2 {
		t.Fatalf("doc = %+v", doc)
	}
	api, web := doc.Projects[0], doc.Projects[2]
	if api.Name != "shop-api-prod" || api.Status != "failed" || len(api.Findings) != 2 || api.Summary != nil || api.Changes != nil {
		t.Errorf("failed project: %+v", api)
	}
	if web.Summary == nil || web.Summary.Prune != 1 || len(web.Changes) != 4 || web.Changes[0]["action"] != "create" {
		t.Errorf("web project: %+v", web)
	}
	// The changes are the single plan JSON's.
	var single struct{ Changes []map[string]any }
	_ = json.Unmarshal(renderPlan(t, "json", webProdPlan(), PlanOptions{}), &single)
	a, _ := json.Marshal(single.Changes)
	b, _ := json.Marshal(web.Changes)
	if !bytes.Equal(a, b) {
		t.Errorf("changes differ from the plan JSON's:\n%s\n%s", a, b)
	}
}

func TestFairShares(t *testing.T) {
	for _, c := range []struct {
		sizes []int
		room  int
		want  []int
	}{
		{[]int{10, 20, 30}, 100, []int{10, 20, 30}},
		{[]int{10, 100, 100}, 100, []int{10, 45, 45}},
		{[]int{100, 10, 30, 100}, 100, []int{30, 10, 30, 30}},
		{[]int{5, 5}, -3, []int{0, 0}},
		{nil, 10, []int{}},
	} {
		got := fairShares(c.sizes, c.room)
		if len(got) != len(c.want) || !equalInts(got, c.want) {
			t.Errorf("fairShares(%v, %d) = %v, want %v", c.sizes, c.room, got, c.want)
		}
	}
}

func equalInts(a, b []int) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}

// TestRunPlanMarkdownFair: 60 projects of big plans fit the limit, every
// project has its row and its section, small sections are whole, and the
// cut ones say where the full plan is.
func TestRunPlanMarkdownFair(t *testing.T) {
	const url = "https://github.com/acme/shop/actions/runs/4242"
	r := bigRun(60, 40, 2000)
	for _, limit := range []int{DefaultMaxBytes, 200_000} {
		out := renderRun(t, "markdown", r, RunOptions{MaxBytes: limit, SummaryURL: url})
		if len(out) > limit {
			t.Fatalf("limit %d: %d bytes", limit, len(out))
		}
		if o, c := strings.Count(out, "<details"), strings.Count(out, "</details>"); o != c {
			t.Errorf("limit %d: %d <details> but %d </details>", limit, o, c)
		}
		cut := 0
		for _, p := range r.Projects {
			name := p.Project.Name
			if !strings.Contains(out, "| `"+name+"` | `prod` | `store` |") {
				t.Errorf("limit %d: no table row for %s", limit, name)
			}
			if !strings.Contains(out, "<summary>"+name+": ") {
				t.Errorf("limit %d: no section for %s", limit, name)
			}
			if p.Status == run.NoChanges {
				whole := string(renderPlan(t, "markdown", p.Plan, PlanOptions{}))
				if !strings.Contains(out, "<summary>"+name+": "+p.Plan.Summary().String()+"</summary>\n\n"+whole) {
					t.Errorf("limit %d: the small plan of %s was cut", limit, name)
				}
			}
			if strings.Contains(out, "<summary>"+name+": Plan: 0 to add, 40 to change, 0 to prune, 0 unchanged. (cut to fit)</summary>") {
				cut++
			}
		}
		if cut != 57 {
			t.Errorf("limit %d: %d sections cut, want 57", limit, cut)
		}
		if n := strings.Count(out, "the full plan is in [the job summary]("+url+")"); n != 57 {
			t.Errorf("limit %d: %d notes link the job summary, want 57", limit, n)
		}
		for _, s := range planSecrets {
			if strings.Contains(out, s) {
				t.Errorf("output contains the secret value %q", s)
			}
		}
	}
	// What fits is not cut.
	if out := renderRun(t, "markdown", runFixture(), RunOptions{MaxBytes: 1 << 20}); strings.Contains(out, "cut to fit") || strings.Contains(out, "left out") {
		t.Errorf("a small run was cut:\n%s", out)
	}
}

// TestRunPlanMarkdownTiny: with less room than the sections need, the
// table still fits and every section is there, even if empty.
func TestRunPlanMarkdownTiny(t *testing.T) {
	r := runFixture()
	for limit := 1200; limit < 6000; limit += 97 {
		out := renderRun(t, "markdown", r, RunOptions{MaxBytes: limit})
		if len(out) > limit {
			t.Fatalf("limit %d: %d bytes", limit, len(out))
		}
		if !strings.Contains(out, "| `shop-worker-prod` |") {
			t.Errorf("limit %d: the table was cut:\n%s", limit, out)
		}
		if o, c := strings.Count(out, "<details"), strings.Count(out, "</details>"); o != c || strings.Count(out, "```")%2 != 0 {
			t.Errorf("limit %d: unbalanced blocks:\n%s", limit, out)
		}
	}
}

func TestRunAnnotations(t *testing.T) {
	anns := RunAnnotations(runFixture())
	var titles []string
	for _, a := range anns {
		titles = append(titles, a.Title)
	}
	// The report's order, and in each project PlanAnnotations' order.
	want := "prune in shop-db-prod, drift in shop-web-prod, prune in shop-web-prod"
	if got := strings.Join(titles, ", "); got != want {
		t.Errorf("titles = %s, want %s", got, want)
	}
	// Capped for the whole run, not per project.
	if anns := RunAnnotations(bigRun(5, 40, 10)); len(anns) != ghactions.MaxAnnotations+1 || !strings.Contains(anns[len(anns)-1].Message, "more guard, drift") {
		t.Errorf("%d annotations, last %+v", len(anns), anns[len(anns)-1])
	}
}
