package render

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/health"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/run"
)

// stagedProject is a project whose ordered apply stopped at wave 1 with
// a crash-looping Deployment, its SyncFail hooks failed when syncFail.
func stagedProject(name string, syncFail bool) run.ProjectReport {
	res := applyFixture().Result
	res.Health = []health.Result{crashLoopWorkload()}
	var onFail error
	if syncFail {
		onFail = errors.New("job.batch/page: BackoffLimitExceeded")
	}
	err := fmt.Errorf("applying: %w", &apply.StageError{Stage: "wave 1", Err: &health.UnhealthyError{Results: res.Health}, OnFail: onFail})
	return run.ProjectReport{Project: project.Project{Name: name}, Status: run.Failed, Namespace: "store", ApplySet: "configmap/gitops-applyset",
		Result: res, Err: err, Error: err.Error()}
}

// A failed ordered apply says the stage it stopped at in text, markdown
// and json, alone and in a run over projects; a run without stages says
// nothing of stages.
func TestApplyViewsSayTheFailedStage(t *testing.T) {
	single := &run.Report{Single: true, Projects: []run.ProjectReport{stagedProject("shop", true)}}
	var b bytes.Buffer
	if err := RunApply(&b, "text", single, RunOptions{}); err != nil {
		t.Fatal(err)
	}
	if want := "Apply: 1 created, 1 configured, 1 pruned, 2 unchanged.\nStopped at stage wave 1 (the stages after it did not run; the SyncFail hooks failed).\n"; !strings.HasSuffix(b.String(), want) {
		t.Errorf("text ends\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	if err := RunApply(&b, "json", single, RunOptions{}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		FailedStage string `json:"failedStage"`
		Error       string `json:"error"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil || doc.FailedStage != "wave 1" || !strings.HasPrefix(doc.Error, "stage wave 1: applying: ") {
		t.Errorf("json (%v): %s", err, b.String())
	}
	b.Reset()
	if err := RunApplyMarkdown(&b, single, RunOptions{}); err != nil {
		t.Fatal(err)
	}
	if want := "> The apply stopped at stage wave 1 (the stages after it did not run; the SyncFail hooks failed): applying: 1 object failed"; !strings.Contains(b.String(), want) ||
		!strings.Contains(b.String(), "#### Why it failed") {
		t.Errorf("markdown lacks %q:\n%s", want, b.String())
	}

	// A run over projects: the stage under the project, in json per project.
	ok := stagedProject("ok", false)
	ok.Status, ok.Err, ok.Error = run.Applied, nil, ""
	ok.Result = applyFixture().Result
	many := &run.Report{Projects: []run.ProjectReport{stagedProject("shop", false), ok}}
	b.Reset()
	if err := RunApply(&b, "text", many, RunOptions{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.Count(out, "Stopped at stage wave 1 (the stages after it did not run; the SyncFail hooks, if any, succeeded).\n") != 1 ||
		strings.Index(out, "Stopped at") > strings.Index(out, "── ok") {
		t.Errorf("run text:\n%s", out)
	}
	b.Reset()
	if err := RunApply(&b, "json", many, RunOptions{}); err != nil {
		t.Fatal(err)
	}
	var runDoc struct {
		Projects []struct {
			FailedStage *string `json:"failedStage"`
		} `json:"projects"`
	}
	if err := json.Unmarshal(b.Bytes(), &runDoc); err != nil || len(runDoc.Projects) != 2 || runDoc.Projects[0].FailedStage == nil ||
		*runDoc.Projects[0].FailedStage != "wave 1" || runDoc.Projects[1].FailedStage != nil {
		t.Errorf("run json (%v): %s", err, b.String())
	}
	b.Reset()
	if err := RunApplyMarkdown(&b, many, RunOptions{}); err != nil {
		t.Fatal(err)
	}
	if strings.Count(b.String(), "> The apply stopped at stage wave 1 (") != 1 {
		t.Errorf("run markdown:\n%s", b.String())
	}

	// The GitHub annotation of the failed workload names the stage.
	anns := ApplyAnnotations(single)
	if len(anns) != 1 || anns[0].Title != "deployment.apps/web failed: CrashLoopBackOff (stage wave 1)" {
		t.Errorf("annotations %+v", anns)
	}

	// Without stages: no stage line, no failedStage.
	plain := stagedProject("shop", false)
	plain.Err = &health.UnhealthyError{Results: plain.Result.Health}
	plain.Error = plain.Err.Error()
	single.Projects[0] = plain
	for _, format := range ApplyFormats() {
		b.Reset()
		if err := RunApply(&b, format, single, RunOptions{}); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(b.String(), "Stopped at") || strings.Contains(b.String(), "failedStage") || strings.Contains(b.String(), "stage") {
			t.Errorf("%s of a run without stages:\n%s", format, b.String())
		}
	}
	b.Reset()
	if err := RunApplyMarkdown(&b, single, RunOptions{}); err != nil || strings.Contains(b.String(), "stopped at") || !strings.Contains(b.String(), "> The apply failed: ") {
		t.Errorf("markdown of a run without stages (%v):\n%s", err, b.String())
	}
	if anns := ApplyAnnotations(single); len(anns) != 1 || strings.Contains(anns[0].Title, "stage") {
		t.Errorf("annotations %+v", anns)
	}
}
