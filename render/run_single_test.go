package render

import (
	"bytes"
	"slices"
	"testing"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/run"
)

// singleRun is the Single run a plain invocation makes of one plan.
func singleRun(p run.ProjectReport) *run.Report {
	return &run.Report{Version: run.FormatVersion, Single: true, Projects: []run.ProjectReport{p}}
}

func singlePlanRun(pl *plan.Plan) *run.Report {
	st := run.NoChanges
	if pl.HasChanges() {
		st = run.Changes
	}
	return singleRun(run.ProjectReport{Namespace: pl.Namespace, ApplySet: "configmap/gitops-applyset", Status: st, Plan: pl})
}

// The golden plans, rendered as a Single run, are byte for byte what Plan
// writes, in every format, and what the golden files hold; so are the
// annotations and the summary line the GitHub view writes.
func TestRunPlanSingleIsPlan(t *testing.T) {
	plans := map[string]*plan.Plan{"mixed": planFixture(), "nochange": noChangePlan(), "empty": emptyPlan(),
		"big": bigPlan(300, 400), "hostile": hostilePlan(), "owner": ownerPlan(), "kept": keptPlan()}
	goldens := map[string]string{
		"mixed text": "plan-mixed.text.golden", "mixed text color": "plan-color.text.golden", "nochange text": "plan-nochange.text.golden",
		"empty text": "plan-empty.text.golden", "mixed json": "plan-mixed.json.golden", "empty json": "plan-empty.json.golden",
		"mixed markdown": "plan-mixed.markdown.golden", "nochange markdown": "plan-nochange.markdown.golden",
		"mixed markdown cut": "plan-cut.markdown.golden",
	}
	opts := map[string]PlanOptions{"": {}, " color": {Color: true}, " cut": {MaxBytes: 2200},
		" summary": {MaxBytes: 5000, SummaryHint: "the job log", LimitName: "the job summary's 1 MiB limit"},
		" comment": {MaxBytes: 3000, SummaryURL: "https://github.com/acme/shop/actions/runs/1"}}
	checked := 0
	for name, pl := range plans {
		for _, format := range PlanFormats() {
			for suffix, o := range opts {
				key := name + " " + format + suffix
				want := renderPlan(t, format, pl, o)
				var got bytes.Buffer
				if err := RunPlan(&got, format, singlePlanRun(pl), o); err != nil {
					t.Fatalf("%s: %v", key, err)
				}
				if !bytes.Equal(got.Bytes(), want) {
					t.Errorf("%s: the Single run renders\n%s\nthe plan\n%s", key, got.Bytes(), want)
				}
				if g, ok := goldens[key]; ok {
					golden(t, g, got.Bytes())
					checked++
				}
			}
		}
		if got, want := RunAnnotations(singlePlanRun(pl)), PlanAnnotations(pl); !slices.Equal(got, want) {
			t.Errorf("%s: annotations %v, want %v", name, got, want)
		}
		if got, want := RunSummary(singlePlanRun(pl)), pl.Summary().String(); got != want {
			t.Errorf("%s: summary %q, want %q", name, got, want)
		}
	}
	if checked != len(goldens) {
		t.Errorf("checked %d golden files, want %d", checked, len(goldens))
	}
}

// A Single run whose plan could not be made writes nothing: the command
// reports the error, as a plain plan always did. One that does not hold
// exactly one project is an error.
func TestRunPlanSingleFailed(t *testing.T) {
	for _, format := range PlanFormats() {
		var b bytes.Buffer
		if err := RunPlan(&b, format, singleRun(run.ProjectReport{Status: run.Failed, Error: "lint found 1 error(s)"}), PlanOptions{}); err != nil || b.Len() != 0 {
			t.Errorf("%s: err %v, wrote %q", format, err, b.String())
		}
		two := &run.Report{Single: true, Projects: []run.ProjectReport{{}, {}}}
		if err := RunPlan(&b, format, two, PlanOptions{}); err == nil || b.Len() != 0 {
			t.Errorf("%s: two projects in a Single run: err %v, wrote %q", format, err, b.String())
		}
	}
	if anns := RunAnnotations(singleRun(run.ProjectReport{Status: run.Failed})); anns != nil {
		t.Errorf("annotations of a failed plan: %v", anns)
	}
}

// An apply rendered as a Single run is byte for byte what Apply and
// ApplyMarkdown write: in sync with the revision, or failed; the golden
// markdown included.
func TestRunApplySingleIsApply(t *testing.T) {
	failed := applyFixture()
	failed.Err = "applying deployment.apps/web: admission webhook denied\nsecond line"
	fromDir := applyFixture()
	fromDir.Revision = nil
	skipped := applyFixture()
	skipped.Result.Objects = append(skipped.Result.Objects, obj("Secret", "", "db", apply.Skipped), obj("ConfigMap", "", "kept", apply.Released))
	for name, rep := range map[string]ApplyReport{"synced": applyFixture(), "failed": failed, "dir": fromDir, "skipped": skipped} {
		st := run.Applied
		if rep.Err != "" {
			st = run.Failed
		}
		r := singleRun(run.ProjectReport{Namespace: rep.Namespace, ApplySet: rep.ApplySet, Status: st, Error: rep.Err, Result: rep.Result})
		o := RunOptions{Revision: rep.Revision}
		for _, format := range ApplyFormats() {
			var want, got bytes.Buffer
			if err := Apply(&want, format, rep); err != nil {
				t.Fatal(err)
			}
			if err := RunApply(&got, format, r, o); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("%s %s: the Single run renders\n%s\nthe apply\n%s", name, format, got.Bytes(), want.Bytes())
			}
		}
		for _, limit := range []int{0, 400, 700} {
			want := applyMD(t, rep, limit)
			var got bytes.Buffer
			if err := RunApplyMarkdown(&got, r, RunOptions{MaxBytes: limit, Revision: rep.Revision}); err != nil {
				t.Fatal(err)
			}
			if got.String() != want {
				t.Errorf("%s markdown %d: the Single run renders\n%s\nthe apply\n%s", name, limit, got.String(), want)
			}
			if name == "synced" && limit == 0 {
				golden(t, "apply.markdown.golden", got.Bytes())
			}
		}
		if got, want := RunApplySummary(r), ApplySummary(rep.Result); got != want {
			t.Errorf("%s: summary %q, want %q", name, got, want)
		}
	}
	// apply that failed before writing prints nothing: the error is the
	// command's.
	var b bytes.Buffer
	if err := RunApply(&b, "text", singleRun(run.ProjectReport{Status: run.Failed, Error: "denied"}), RunOptions{}); err != nil || b.Len() != 0 {
		t.Errorf("no result: err %v, wrote %q", err, b.String())
	}
	if err := RunApply(&b, "yaml", singleRun(run.ProjectReport{}), RunOptions{}); err == nil || b.Len() != 0 {
		t.Errorf("unknown format: err %v, wrote %q", err, b.String())
	}
}

// One ApplySet's status, rendered as a Single run, is byte for byte what
// Status writes, in text and json.
func TestRunStatusSingleIsStatus(t *testing.T) {
	for i, p := range runStatusFixture().Projects {
		for _, format := range []string{"text", "json"} {
			var want, got bytes.Buffer
			if p.Health != nil {
				if err := Status(&want, format, p.Health); err != nil {
					t.Fatal(err)
				}
			}
			if err := RunStatus(&got, format, singleRun(p)); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("project %d %s: the Single run renders\n%s\nthe status\n%s", i, format, got.Bytes(), want.Bytes())
			}
			if p.Health != nil && got.Len() == 0 {
				t.Errorf("project %d %s: nothing written", i, format)
			}
		}
	}
	if err := RunStatus(new(bytes.Buffer), "yaml", singleRun(run.ProjectReport{})); err == nil {
		t.Error("unknown format: no error")
	}
}
