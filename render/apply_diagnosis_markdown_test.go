package render

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/health"
	"github.com/kubeplan/kubeplan/internal/ghactions"
	"github.com/kubeplan/kubeplan/internal/testing/githubtest"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/run"
)

var webRef = plan.Ref{Group: "apps", Version: "v1", Kind: "Deployment", Namespace: "shop", Name: "web"}

// crashLoopResult is an apply whose Deployment web crash-loops: two pods,
// a log tail with a masked value, a BackOff event, a missing permission.
func crashLoopResult(log ...string) *apply.Result {
	if log == nil {
		log = []string{"connecting with password ***", "fatal: cannot connect"}
	}
	d := &health.Diagnosis{
		Source: "deploy/web.yaml:10:1",
		Causes: []health.Cause{{Signal: health.Signal{Pod: "web-7d9c-abcde", Container: "main", Reason: "CrashLoopBackOff",
			Message: "back-off 10s restarting failed container=main", Restarts: 3, ExitCode: 1, TerminationMessage: "cannot connect", Previous: true},
			Pods: 2, Log: log}},
		Events:  []health.Event{{Object: "Pod/web-7d9c-abcde", Reason: "BackOff", Note: "Back-off restarting failed container main", Count: 3}},
		Missing: []string{"missing permission: list events.k8s.io: the ReplicaSet's events"},
	}
	return &apply.Result{
		Objects: []apply.ObjectResult{{Ref: webRef, Outcome: apply.Created}},
		Health:  []health.Result{{Ref: webRef, Status: health.Failed, Message: "0/2 available", Diagnosis: d}},
	}
}

// The job summary of a failed apply says why under the caution: the
// workload and its line, the container, reason, pod facts, the log tail
// in a code block, the events, what could not be read.
func TestApplyMarkdownDiagnosis(t *testing.T) {
	md := applyMD(t, ApplyReport{Namespace: "shop", Result: crashLoopResult(), Err: "deployment.apps/web: CrashLoopBackOff"}, 0)
	for _, want := range []string{
		"> The apply failed: deployment.apps/web: CrashLoopBackOff\n\n#### Why it failed\n",
		"\n**❌ `deployment.apps/web` failed: CrashLoopBackOff**, defined at `deploy/web.yaml:10:1`\n",
		"\nContainer `main`: **CrashLoopBackOff**: back-off 10s restarting failed container=main (2 pods)\n",
		"\nPod `web-7d9c-abcde`, 3 restarts, exit code 1.\n",
		"\nTermination message:\n\n```text\ncannot connect\n```\n",
		"\nLog (last 2 lines, previous instance):\n\n```text\nconnecting with password ***\nfatal: cannot connect\n```\n",
		"\n| event | reason | count | note |\n|---|---|---|---|\n| `Pod/web-7d9c-abcde` | BackOff | 3 | Back-off restarting failed container main |\n",
		"\n⚠️ missing permission: list events.k8s.io: the ReplicaSet's events\n",
		"\n| `deployment.apps/web` | ➕ created |\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if strings.Index(md, "Why it failed") > strings.Index(md, "| object | result |") {
		t.Errorf("the diagnosis is not above the table:\n%s", md)
	}
	// A healthy apply has no such section.
	if md := applyMD(t, ApplyReport{Result: &apply.Result{Objects: []apply.ObjectResult{{Ref: webRef, Outcome: apply.Created}}}}, 0); strings.Contains(md, "Why it failed") {
		t.Errorf("a healthy apply says why it failed:\n%s", md)
	}
}

// Log lines, messages and events are the cluster's, written by whoever
// runs in it: a log line that closes a ``` fence, opens HTML, mentions
// and references stays inside a longer fence, and messages are escaped.
func TestApplyMarkdownDiagnosisHostile(t *testing.T) {
	log := append(strings.Split(strings.TrimSuffix(hostileDiff, "\n"), "\n"), hostile, "`````", "tab\there\x1b[31m")
	res := crashLoopResult(log...)
	d := res.Health[0].Diagnosis
	d.Causes[0].Message = hostile
	d.Causes[0].TerminationMessage = "```\n# forged heading @octocat\n"
	d.Events[0].Note = hostile + " | a cell"
	d.Missing = []string{hostile}
	md := applyMD(t, ApplyReport{Namespace: "shop", Result: res, Err: hostile}, 0)
	checkHostileMarkdown(t, md, 0)
	if !strings.Contains(md, "\n``````text\n") {
		t.Errorf("the log holding ````` is not in a longer fence:\n%s", md)
	}
	if !strings.Contains(md, "tab\there\\x1b[31m\n") {
		t.Errorf("the control character is not shown escaped:\n%s", md)
	}
	if !strings.Contains(md, "\\| a cell |\n") {
		t.Errorf("the event's | is not escaped in its cell:\n%s", md)
	}
}

// Many causes with long logs: the markdown fits the comment's budget,
// keeps the first causes and says how many it left out.
func TestApplyMarkdownDiagnosisFits(t *testing.T) {
	res := crashLoopResult()
	d := res.Health[0].Diagnosis
	line := strings.Repeat("x", 180)
	d.Causes = nil
	for i := range 300 {
		var log []string
		for j := range 20 {
			log = append(log, fmt.Sprintf("cause %d line %d %s", i, j, line))
		}
		d.Causes = append(d.Causes, health.Cause{Signal: health.Signal{Pod: fmt.Sprintf("web-%d", i), Container: fmt.Sprintf("c%d", i), Reason: "CrashLoopBackOff"}, Pods: 1, Log: log})
	}
	var whole strings.Builder
	if err := ApplyMarkdown(&whole, ApplyReport{Result: res, Err: "failed"}, 0); err != nil {
		t.Fatal(err)
	}
	if whole.Len() < 1_000_000 {
		t.Fatalf("the fixture is only %d bytes", whole.Len())
	}
	for _, limit := range []int{DefaultMaxBytes, 8192} {
		r := &run.Report{Single: true, Projects: []run.ProjectReport{{Status: run.Failed, Result: res, Error: "failed"}}}
		var b strings.Builder
		if err := RunApplyMarkdown(&b, r, RunOptions{MaxBytes: limit, LimitName: "GitHub's 65536-character comment limit"}); err != nil {
			t.Fatal(err)
		}
		md := b.String()
		if len(md) > limit {
			t.Errorf("%d bytes, over the limit %d", len(md), limit)
		}
		for _, want := range []string{"failed: CrashLoopBackOff**, defined at `deploy/web.yaml:10:1`", "Container `c0`", "cause 0 line 19 ", "more not shown._",
			"left out to stay under GitHub's 65536-character comment limit; the full list is in the job log."} {
			if !strings.Contains(md, want) {
				t.Errorf("limit %d: markdown lacks %q:\n%s", limit, want, md)
			}
		}
		if strings.Contains(md, "cause 299 ") {
			t.Errorf("limit %d: the last cause fits?", limit)
		}
		if strings.Count(md, "```text\n") != strings.Count(md, "\n```\n") {
			t.Errorf("limit %d: a code block was cut open:\n%s", limit, md)
		}
	}
}

// One error annotation per failed workload, at its manifest line, titled
// with the workload and reason; a log line holding a workflow command,
// an escaped newline and a newline stays inside the one command.
func TestApplyAnnotations(t *testing.T) {
	res := crashLoopResult("fine", "::error::forged%0A::add-mask::x", "two\nlines ::warning::y")
	r := &run.Report{Single: true, Projects: []run.ProjectReport{{Status: run.Failed, Result: res}}}
	anns := ApplyAnnotations(r)
	if len(anns) != 1 {
		t.Fatalf("annotations: %+v", anns)
	}
	a := anns[0]
	if a.Level != ghactions.LevelError || a.File != "deploy/web.yaml" || a.Line != 10 || a.Col != 1 || a.Title != "deployment.apps/web failed: CrashLoopBackOff" {
		t.Errorf("annotation: %+v", a)
	}
	line := a.String()
	cmds := githubtest.RunnerCommands(line + "\n")
	if len(cmds) != 1 || strings.Contains(line, "\n") ||
		!strings.HasPrefix(line, "::error file=deploy/web.yaml,line=10,col=1,title=deployment.apps/web failed%3A CrashLoopBackOff::") {
		t.Fatalf("the runner reads %q from:\n%s", cmds, line)
	}
	for _, want := range []string{"2 pods: container main: CrashLoopBackOff", "%0A  pod web-7d9c-abcde, 3 restarts, exit code 1%0A",
		"%0A    | ::error::forged%250A::add-mask::x%0A", "%0A    | two\\x0alines ::warning::y%0A", "events:%0A  Pod/web-7d9c-abcde BackOff (x3)"} {
		if !strings.Contains(line, want) {
			t.Errorf("annotation lacks %q:\n%s", want, line)
		}
	}

	// A file name with colons; a run over projects names the project; at
	// most 10 errors and a notice counting the rest.
	res.Health[0].Diagnosis.Source = "a:b/web.yaml:3:5"
	var ps []run.ProjectReport
	for i := range 12 {
		ps = append(ps, run.ProjectReport{Project: project.Project{Name: fmt.Sprintf("p%d", i)}, Status: run.Failed, Result: res})
	}
	anns = ApplyAnnotations(&run.Report{Projects: ps})
	if len(anns) != 11 || anns[0].File != "a:b/web.yaml" || anns[0].Line != 3 || anns[0].Col != 5 || anns[0].Title != "deployment.apps/web failed: CrashLoopBackOff in p0" ||
		anns[10].Level != ghactions.LevelNotice || anns[10].Message != "2 more failed workloads were not annotated (GitHub shows 10 errors per step); the job summary says why each failed." {
		t.Errorf("annotations over projects: %+v", anns)
	}
	if s := anns[0].String(); !strings.HasPrefix(s, "::error file=a%3Ab/web.yaml,line=3,col=5,") {
		t.Errorf("file with colons: %s", s)
	}
}

// Over projects, a failed project's section says why, and a hostile
// diagnosis escapes neither its code block nor the project's <details>.
func TestRunApplyMarkdownDiagnosis(t *testing.T) {
	res := crashLoopResult(append(strings.Split(strings.TrimSuffix(hostileDiff, "\n"), "\n"), hostile)...)
	res.Health[0].Diagnosis.Events[0].Note = hostile
	r := &run.Report{Projects: []run.ProjectReport{
		{Project: project.Project{Name: "shop-web-prod"}, Cluster: "prod", Namespace: "shop", Status: run.Failed, Result: res, Error: "1 object failed"},
		{Project: project.Project{Name: "shop-api-prod"}, Cluster: "prod", Namespace: "shop", Status: run.Applied, Result: &apply.Result{}},
	}}
	var b strings.Builder
	if err := RunApplyMarkdown(&b, r, RunOptions{}); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	checkHostileMarkdown(t, md, 2)
	if !strings.Contains(md, "<details open><summary>shop-web-prod: failed</summary>") ||
		!strings.Contains(md, "**❌ `deployment.apps/web` failed: CrashLoopBackOff**, defined at `deploy/web.yaml:10:1`") {
		t.Errorf("the failed project does not say why:\n%s", md)
	}
}
