package render

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/internal/guard"
	"github.com/kubeplan/kubeplan/run"
)

func withheldReport() ApplyReport {
	return ApplyReport{Namespace: "store", ApplySet: "configmap/gitops-applyset", Result: withheldResult()}
}

func TestApplyGuardsGolden(t *testing.T) {
	var text, md bytes.Buffer
	if err := Apply(&text, "text", withheldReport()); err != nil {
		t.Fatal(err)
	}
	golden(t, "apply-guards.text.golden", text.Bytes())
	if err := ApplyMarkdown(&md, withheldReport(), 0); err != nil {
		t.Fatal(err)
	}
	golden(t, "apply-guards.markdown.golden", md.Bytes())
}

func TestApplyGuardsText(t *testing.T) {
	var b bytes.Buffer
	if err := Apply(&b, "text", withheldReport()); err != nil {
		t.Fatal(err)
	}
	want := `deployment.apps/web configured
persistentvolumeclaim/data withheld, awaiting approval (protect-pvc: --approve protect-pvc=REASON)
configmap/old pruned
Apply: 0 created, 1 configured, 1 pruned, 1 withheld, 0 unchanged.
Approved protect-pvc: volume 0 moved to backup — by @alice via review on PR #12 (persistentvolumeclaim/data)
Applied outside the change windows: hotfix \x1b[2J for the outage — by ops via --outside-window
Pending approval protect-pvc: prunes persistentvolumeclaim/data in store: pruning a PersistentVolumeClaim deletes its volume (approve: --approve protect-pvc=REASON)
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	// A withheld prune is not something written.
	if !strings.Contains(ApplySummary(withheldResult()), "1 withheld") {
		t.Errorf("summary: %s", ApplySummary(withheldResult()))
	}
}

func TestApplyGuardsMarkdown(t *testing.T) {
	var b bytes.Buffer
	if err := ApplyMarkdown(&b, withheldReport(), 0); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"\n- ✅ Approved protect-pvc: volume 0 moved to backup — by @&#8203;alice via review on PR #&#8203;12 (persistentvolumeclaim/data)\n",
		"\n- ✅ Applied outside the change windows: hotfix \\\\x1b\\[2J for the outage — by ops via --outside-window\n",
		"\n- ✋ Pending approval protect-pvc: prunes persistentvolumeclaim/data in store: pruning a PersistentVolumeClaim deletes its volume (approve: --approve protect-pvc=REASON)\n",
		"| `persistentvolumeclaim/data` | ✋ withheld, awaiting approval |\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The approvals are in the head: a cut keeps them.
	b.Reset()
	r := withheldReport()
	for i := range 300 {
		r.Result.Objects = append(r.Result.Objects, obj("ConfigMap", "", fmt.Sprintf("cm-%03d", i), apply.Created))
	}
	if err := ApplyMarkdown(&b, r, 2500); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); len(out) > 2500 || !strings.Contains(out, "✋ Pending approval protect-pvc") || !strings.Contains(out, "left out") {
		t.Errorf("cut to 2500 bytes (%d):\n%s", len(out), out)
	}
}

func TestApplyGuardsJSON(t *testing.T) {
	var b bytes.Buffer
	if err := Apply(&b, "json", withheldReport()); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Objects []struct {
			Outcome string `json:"outcome"`
		} `json:"objects"`
		Approvals []apply.ApprovalRecord `json:"approvals"`
		Pending   []guard.Verdict        `json:"pendingApprovals"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Objects) != 3 || doc.Objects[1].Outcome != "withheld, awaiting approval" || len(doc.Approvals) != 2 ||
		doc.Approvals[0].By != "@alice" || !doc.Approvals[1].Window || len(doc.Pending) != 1 || doc.Pending[0].Rule != guard.ProtectPVC {
		t.Errorf("json:\n%s", b.String())
	}
}

func TestStatusGuardsGolden(t *testing.T) {
	var b bytes.Buffer
	if err := Status(&b, "text", guardStatus(12)); err != nil {
		t.Fatal(err)
	}
	golden(t, "status-guards.text.golden", b.Bytes())
	out := b.String()
	for _, want := range []string{
		"\nApproved protect-pvc: volume 0 moved to backup — by @alice via review on PR #12, revision abc1234, 2026-12-20T10:00:00Z (persistentvolumeclaim/data)\n",
		"\nApplied outside the change windows: hotfix \\x1b[2J for the outage — by ops via --outside-window, revision abc1234, 2026-12-19T23:00:00Z\n",
		"\nApproved protect-pvc: volume 9 moved to backup — by @alice via review on PR #3, revision abc1234, 2026-12-11T10:00:00Z (persistentvolumeclaim/data)\n",
		"\n... and 2 older approvals not shown (-o json lists all)\nPending approval protect-pvc: prunes persistentvolumeclaim/data in store:",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "volume 10 ") || strings.Contains(out, "\x1b") {
		t.Errorf("more than 10 approvals, or a raw escape:\n%s", out)
	}
	// Nothing recorded: nothing said.
	b.Reset()
	if err := Status(&b, "text", statusFixture()); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "Approved") || strings.Contains(b.String(), "Pending") {
		t.Errorf("status without approvals:\n%s", b.String())
	}
}

func TestStatusGuardsJSON(t *testing.T) {
	var b bytes.Buffer
	if err := Status(&b, "json", guardStatus(2)); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Approvals []apply.ApprovalRecord `json:"approvals"`
		Pending   []guard.Verdict        `json:"pendingApprovals"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Approvals) != 2 || doc.Approvals[0].PullRequest != 12 || doc.Approvals[0].Revision == "" || len(doc.Pending) != 1 {
		t.Errorf("json:\n%s", b.String())
	}
}

// A project whose status records a pending approval needs a look.
func TestRunStatusPendingNeedsALook(t *testing.T) {
	r := runStatusFixture()
	for i := range r.Projects {
		if r.Projects[i].Project.Name == "shop-web-staging" {
			r.Projects[i].Health.Pending = []guard.Verdict{pvcVerdict()}
		}
	}
	var b bytes.Buffer
	if err := RunStatus(&b, "text", r); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); !strings.Contains(out, "── shop-web-staging") || !strings.Contains(out, "\nPending approval protect-pvc: prunes persistentvolumeclaim/data in store:") {
		t.Errorf("status:\n%s", out)
	}
}

// guardRun is runFixture with the web project's plan stopped by guards and
// the staging one outside its window.
func guardRun() *run.Report {
	r := runFixture()
	for i := range r.Projects {
		p := &r.Projects[i]
		switch p.Project.Name {
		case "shop-web-prod":
			p.Plan.Guards = guardVerdicts()
		case "shop-db-prod":
			p.Plan.Guards = []guard.Verdict{pvcVerdict()}
		case "shop-web-staging":
			p.Plan.Window = closedWindow()
		}
	}
	return r
}

func TestRunPlanGuards(t *testing.T) {
	r := guardRun()
	want := "Total: 5 projects, 2 with changes, 1 failed, 1 skipped, 1 denied by guards, 2 awaiting approval, 1 outside its change window: " +
		"2 to add, 1 to change, 2 to prune, 2 unchanged, 1 drifted."
	if got := RunSummary(r); got != want {
		t.Errorf("summary\n%s\nwant\n%s", got, want)
	}
	var text, md bytes.Buffer
	if err := RunPlan(&text, "text", r, RunOptions{}); err != nil {
		t.Fatal(err)
	}
	golden(t, "run-guards.text.golden", text.Bytes())
	// Each project's verdicts are in its own section.
	sections := strings.Split(text.String(), "── ")
	for _, s := range sections {
		name, _, _ := strings.Cut(s, " ")
		hasDeny := strings.Contains(s, "✗ denied")
		hasPVC := strings.Contains(s, "! needs approval  protect-pvc")
		hasWindow := strings.Contains(s, "Change window closed")
		if hasDeny != (name == "shop-web-prod") || hasPVC != (name == "shop-web-prod" || name == "shop-db-prod") || hasWindow != (name == "shop-web-staging") {
			t.Errorf("section %s: deny %v, pvc %v, window %v:\n%s", name, hasDeny, hasPVC, hasWindow, s)
		}
	}
	if err := RunPlan(&md, "markdown", r, RunOptions{}); err != nil {
		t.Fatal(err)
	}
	golden(t, "run-guards.markdown.golden", md.Bytes())
	if out := md.String(); !strings.Contains(out, "| 1 | 1 | 1 | 1 | changes, ⛔ denied, ✋ needs approval |\n") ||
		!strings.Contains(out, "| 0 | 0 | 0 | 0 | no changes, 🕒 window closed |\n") || strings.Count(out, "**Guards:**") != 2 || strings.Count(out, "#### Guard rules") != 2 || !strings.Contains(out, "**"+mdText(want)+"**") {
		t.Errorf("markdown:\n%s", out)
	}
	var js bytes.Buffer
	if err := RunPlan(&js, "json", r, RunOptions{}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Projects []struct {
			Name   string             `json:"name"`
			Guards []guard.Verdict    `json:"guards"`
			Window *guard.WindowState `json:"window"`
		} `json:"projects"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for _, p := range doc.Projects {
		if (len(p.Guards) > 0) != (p.Name == "shop-web-prod" || p.Name == "shop-db-prod") || (p.Window != nil) != (p.Name == "shop-web-staging") {
			t.Errorf("project %s: %d verdicts, window %v", p.Name, len(p.Guards), p.Window)
		}
	}
	// The annotations name each verdict's project, errors first.
	var titles []string
	for _, a := range RunAnnotations(r) {
		titles = append(titles, a.Title)
	}
	if got := strings.Join(titles, ", "); !strings.HasPrefix(got, "no-public-lb denies in shop-web-prod, protect-pvc needs approval in shop-db-prod, prune in shop-db-prod, protect-pvc needs approval in shop-web-prod, ") {
		t.Errorf("titles: %s", got)
	}
}

func TestRunApplyRefusedByGuards(t *testing.T) {
	r := appliedFixture()
	for i := range r.Projects {
		p := &r.Projects[i]
		if p.Project.Name == "shop-db-prod" {
			ref := &guard.Refusal{Pending: []guard.Verdict{pvcVerdict()}}
			p.Err = fmt.Errorf("project shop-db-prod: %w", ref)
			p.Error, p.Result = p.Err.Error(), nil
		}
	}
	want := "Total: 5 projects, 2 applied, 2 failed, 1 skipped, 1 refused by guards: 1 created, 1 configured, 1 pruned, 2 unchanged."
	if got := RunApplySummary(r); got != want {
		t.Errorf("summary\n%s\nwant\n%s", got, want)
	}
	if g := RunGuards(r); g.Refused != 1 {
		t.Errorf("tally %+v", g)
	}
	var js bytes.Buffer
	if err := RunApply(&js, "json", r, RunOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), `"failed": 2,`) || !strings.Contains(js.String(), `"refused": 1`) {
		t.Errorf("json total:\n%s", js.String())
	}
	// Another error is not a refusal.
	r.Projects[1].Err = errors.New("refused by guard rules")
	if g := RunGuards(r); g.Refused != 0 {
		t.Errorf("a plain error counted as refused: %+v", g)
	}
}

func TestRunProgressGuards(t *testing.T) {
	r := guardRun()
	var b bytes.Buffer
	for _, p := range r.Projects {
		if err := RunProgress(&b, "planned", p); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []string{
		"kubeplan: planned shop-db-prod: Plan: 1 to add, 0 to change, 1 to prune, 0 unchanged; guards: 1 needs approval\n",
		"kubeplan: planned shop-web-prod: Plan: 1 to add, 1 to change, 1 to prune, 1 unchanged; guards: 1 denied, 1 needs approval, 1 approved, 1 warning\n",
		"kubeplan: planned shop-api-prod: failed\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("lines lack %q:\n%s", want, b.String())
		}
	}
	b.Reset()
	p := r.Projects[1]
	p.Status, p.Err = run.Failed, &guard.Refusal{Pending: []guard.Verdict{pvcVerdict()}}
	if err := RunProgress(&b, "applied", p); err != nil {
		t.Fatal(err)
	}
	if want := "kubeplan: applied shop-db-prod: failed (refused by guards)\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}
