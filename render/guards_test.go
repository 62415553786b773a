package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/guard"
	"github.com/kubeplan/kubeplan/plan"
)

func TestPlanGuardsGolden(t *testing.T) {
	golden(t, "plan-guards.text.golden", renderPlan(t, "text", guardPlan(), PlanOptions{}))
	golden(t, "plan-guards-color.text.golden", renderPlan(t, "text", guardPlan(), PlanOptions{Color: true}))
	golden(t, "plan-guards.markdown.golden", renderPlan(t, "markdown", guardPlan(), PlanOptions{}))
	golden(t, "plan-guards.json.golden", renderPlan(t, "json", guardPlan(), PlanOptions{}))
}

func TestPlanGuardsText(t *testing.T) {
	out := string(renderPlan(t, "text", guardPlan(), PlanOptions{}))
	for _, want := range []string{
		"\nGuard rules:\n  ✗ denied          no-public-lb: replaces service/api in store: LoadBalancer <b>Services</b> | `are` *not* allowed, ask @ops in #12\\x1b[31m\n" +
			"                    second line (kubeplan.yaml:12:5)\n",
		"  ! needs approval  protect-pvc: prunes persistentvolumeclaim/data in store: pruning a PersistentVolumeClaim deletes its volume (approve: --approve protect-pvc=REASON)\n",
		"  ✓ approved        mass-prune: the plan: prunes 6 of 10 members of the set (by @alice via review on PR #12: tenants moved to shop-eu)\n",
		"  ~ warning         big-change: the plan: more than 5 changes (rules/plan.yaml:3:3)\n",
		"\nChange window closed: deny window \"0 22 * * 5\" for 58h (Europe/Berlin) is active; opens at 2026-12-07T08:00:00+01:00 (override: --outside-window REASON)\n\nPlan: ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The summary stays the last line; no raw escape or line break from a message.
	if got := lastLine(out); got != guardPlan().Summary().String() {
		t.Errorf("last line %q", got)
	}
	if strings.Contains(out, "\x1b") || strings.Contains(out, "\nsecond line") {
		t.Errorf("a message's control characters are written:\n%q", out)
	}
	// Without verdicts or a closed window, nothing is said of guards.
	for _, p := range []*plan.Plan{planFixture(), noChangePlan(), emptyPlan()} {
		if out := string(renderPlan(t, "text", p, PlanOptions{})); strings.Contains(out, "Guard rules") || strings.Contains(out, "Change window") {
			t.Errorf("guards shown for a plan without any:\n%s", out)
		}
	}
	// Only a window: no "Guard rules:" heading.
	p := planFixture()
	p.Window = &guard.WindowState{Reason: "no allow window is active"}
	out = string(renderPlan(t, "text", p, PlanOptions{}))
	if strings.Contains(out, "Guard rules") || !strings.Contains(out, "\nChange window closed: no allow window is active; it does not open within a year (override: --outside-window REASON)\n") {
		t.Errorf("window only:\n%s", out)
	}
}

func TestPlanGuardsTextColor(t *testing.T) {
	out := string(renderPlan(t, "text", guardPlan(), PlanOptions{Color: true}))
	for _, want := range []string{ansiDel + "✗ denied" + ansiReset, ansiYellow + "! needs approval" + ansiReset,
		ansiGreen + "✓ approved" + ansiReset, ansiYellow + "~ warning" + ansiReset, ansiDel + "Change window closed" + ansiReset} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if plain := ansiCode.ReplaceAllString(out, ""); plain != string(renderPlan(t, "text", guardPlan(), PlanOptions{})) {
		t.Errorf("colour changes more than escape codes:\n%s", plain)
	}
}

func TestPlanGuardsTextCap(t *testing.T) {
	p := &plan.Plan{Namespace: "store"}
	for i := range maxGuardLines + 5 {
		v := pvcVerdict()
		v.Object = fmt.Sprintf("persistentvolumeclaim/data-%02d", i)
		p.Guards = append(p.Guards, v)
	}
	p.Guards = append(p.Guards, guard.Verdict{Rule: "no-public-lb", Outcome: guard.Deny, Object: "service/api"})
	out := string(renderPlan(t, "text", p, PlanOptions{}))
	if n := strings.Count(out, "! needs approval"); n != maxGuardLines {
		t.Errorf("%d pending lines, want %d:\n%s", n, maxGuardLines, out)
	}
	if !strings.Contains(out, "data-19 ") || strings.Contains(out, "data-20") ||
		!strings.Contains(out, "\n  ... and 5 more needing approval not shown (-o json lists all)\n") ||
		!strings.Contains(out, "Guard rules:\n  ✗ denied") {
		t.Errorf("cap:\n%s", out)
	}
}

func TestPlanGuardsMarkdown(t *testing.T) {
	out := string(renderPlan(t, "markdown", guardPlan(), PlanOptions{}))
	for _, want := range []string{
		"\n**Guards:** 1 denied, 1 needs approval, 1 approved, 1 warning; apply refuses this plan while a rule denies it.\n",
		"\n**Change window closed:** deny window \"0 22 \\* \\* 5\" for 58h (Europe/Berlin) is active; opens at 2026-12-07T08:00:00+01:00 (override: `--outside-window REASON`).\n",
		"\n#### Guard rules\n\n| outcome | rule | object | why | how to approve |\n|---|---|---|---|---|\n",
		"| ⛔ denied | `no-public-lb` at `kubeplan.yaml:12:5` | replace `service/api` in `store` | LoadBalancer &lt;b&gt;Services&lt;/b&gt; \\| \\`are\\` \\*not\\* allowed, ask @&#8203;ops in #&#8203;12\\\\x1b\\[31m<br>second line | cannot be approved |\n",
		"| ✋ needs approval | `protect-pvc` (built-in) | prune `persistentvolumeclaim/data` in `store` | pruning a PersistentVolumeClaim deletes its volume | `--approve protect-pvc=REASON` |\n",
		"| ✅ approved | `mass-prune` (built-in) | the plan | prunes 6 of 10 members of the set | approved by @&#8203;alice via review on PR #&#8203;12: tenants moved to shop-eu |\n",
		"| ⚠️ warning | `big-change` at `rules/plan.yaml:3:3` | the plan | more than 5 changes |  |\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The table comes before the prune list: it is what stops an apply.
	if strings.Index(out, "#### Guard rules") > strings.Index(out, "#### Prune") {
		t.Errorf("guard table after the prune list:\n%s", out)
	}
	// Only approvals pending: the line says what lets the plan through.
	p := planFixture()
	p.Guards = []guard.Verdict{pvcVerdict(), pvcVerdict()}
	out = string(renderPlan(t, "markdown", p, PlanOptions{}))
	if !strings.Contains(out, "\n**Guards:** 2 need approval; apply refuses this plan until each is approved (see Guard rules).\n") {
		t.Errorf("pending only:\n%s", out)
	}
	for _, p := range []*plan.Plan{planFixture(), noChangePlan()} {
		if out := string(renderPlan(t, "markdown", p, PlanOptions{})); strings.Contains(out, "Guard") || strings.Contains(out, "window") {
			t.Errorf("guards shown for a plan without any:\n%s", out)
		}
	}
}

// The head's guard and window lines survive any cut that keeps the head;
// the table loses rows from its end and says so.
func TestPlanGuardsMarkdownCut(t *testing.T) {
	p := guardPlan()
	for i := range 200 {
		v := pvcVerdict()
		v.Object = fmt.Sprintf("persistentvolumeclaim/data-%03d", i)
		p.Guards = append(p.Guards, v)
	}
	for _, limit := range []int{3000, 6000, 20000} {
		out := string(renderPlan(t, "markdown", p, PlanOptions{MaxBytes: limit}))
		if len(out) > limit {
			t.Errorf("limit %d: %d bytes", limit, len(out))
		}
		if !strings.Contains(out, "**Guards:** 1 denied, 201 need approval, 1 approved, 1 warning;") || !strings.Contains(out, "**Change window closed:**") {
			t.Errorf("limit %d: the head lost the guard lines:\n%s", limit, out)
		}
		if !strings.Contains(out, "guard rows") {
			t.Errorf("limit %d: the note does not count the guard rows left out:\n%s", limit, out)
		}
	}
}

func TestPlanGuardsJSON(t *testing.T) {
	var doc struct {
		Guards []guard.Verdict    `json:"guards"`
		Window *guard.WindowState `json:"window"`
	}
	if err := json.Unmarshal(renderPlan(t, "json", guardPlan(), PlanOptions{}), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Guards) != 4 || doc.Guards[2].Approval == nil || doc.Guards[2].Approval.By != "@alice" || doc.Guards[0].Message != hostileMessage ||
		doc.Window == nil || doc.Window.Next.Format("2006-01-02T15:04:05Z07:00") != "2026-12-07T08:00:00+01:00" {
		t.Errorf("json: %+v", doc)
	}
	if out := renderPlan(t, "json", planFixture(), PlanOptions{}); bytes.Contains(out, []byte(`"guards"`)) || bytes.Contains(out, []byte(`"window"`)) {
		t.Errorf("guards or window in the JSON of a plan without them")
	}
}

func TestPlanGuardAnnotations(t *testing.T) {
	var got []string
	for _, a := range PlanAnnotations(guardPlan()) {
		got = append(got, a.String())
	}
	want := []string{
		"::error file=manifests/api.yaml,title=no-public-lb denies::no-public-lb: replaces service/api in store: LoadBalancer <b>Services</b> | `are` *not* allowed, ask @ops in #12\\x1b[31m%0Asecond line (kubeplan.yaml:12:5) (no approval lets it through)",
		"::warning title=protect-pvc needs approval::protect-pvc: prunes persistentvolumeclaim/data in store: pruning a PersistentVolumeClaim deletes its volume (approve: --approve protect-pvc=REASON)",
	}
	if len(got) < 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("got\n%s\nwant first\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Approved verdicts and warnings are not annotated.
	for _, a := range got {
		if strings.Contains(a, "mass-prune") || strings.Contains(a, "big-change") {
			t.Errorf("annotated: %s", a)
		}
	}
	// Errors are capped apart from warnings, each with its own notice.
	p := planFixture()
	for i := range 13 {
		p.Guards = append(p.Guards, guard.Verdict{Rule: "no-public-lb", Outcome: guard.Deny, Object: fmt.Sprintf("service/lb-%02d", i)})
	}
	as := PlanAnnotations(p)
	errs, warns := 0, 0
	for _, a := range as {
		switch a.Level {
		case "error":
			errs++
		case "warning":
			warns++
		}
	}
	last := as[len(as)-1]
	if errs != 10 || warns != 4 || last.Level != "notice" ||
		last.Message != "3 more denied guard verdicts were not annotated (GitHub shows 10 per step); the job summary has the whole plan." {
		t.Errorf("%d errors, %d warnings, last %+v", errs, warns, last)
	}
}
