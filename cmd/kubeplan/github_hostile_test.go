package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/internal/testing/githubtest"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/run"
)

// Text a pull request writes to command the runner, to mention people and
// to forge the plan comment: in values, keys, file and directory names and
// (through the live object) diff context lines.
var hostileValues = []string{
	"::error::forged",
	"  ::add-mask::prune",
	"x ##[error]forged",
	"::stop-commands::abc",
	"@octocat",
	"```",
	"<!-- kubeplan:plan cluster=- namespace=- applyset=- -->",
	"</details>",
}

// writeHostileRepo writes a repository whose file names, keys and values
// hold hostileValues; lint finds errors in it (keys that are not valid
// ConfigMap keys, a list where a string belongs).
func writeHostileRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	sub := filepath.Join(dir, "  ::add-mask::prune")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	var data strings.Builder
	for i, v := range hostileValues {
		b, _ := json.Marshal(v)
		data.WriteString("  v" + string(rune('a'+i)) + ": " + string(b) + "\n")
	}
	files := map[string]string{
		filepath.Join(sub, "x ##[error]forged.yaml"): "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata:\n" +
			"  \"x ##[error]forged @octocat\": [1]\n  \"k\\n::error::forged\\n  ::stop-commands::abc\": [2]\n",
		filepath.Join(dir, "::error::forged.yaml"): "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\ndata: {a: [1]}\n",
		filepath.Join(dir, "values.yaml"):          "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: values}\ndata:\n" + data.String(),
	}
	for name, body := range files {
		if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// ownCommand is a command line kubeplan writes itself: at the start of the
// line, a known name.
var ownCommand = regexp.MustCompile(`^::(error|warning|notice|add-mask)[ :]`)

// checkRunnerLog fails when the runner would run a command in log that is
// not one of kubeplan's own (an annotation, or a mask of one of masks),
// and returns kubeplan's.
func checkRunnerLog(t *testing.T, what, log string, masks ...string) []string {
	t.Helper()
	cmds := githubtest.RunnerCommands(log)
	for _, c := range cmds {
		if !ownCommand.MatchString(c) {
			t.Errorf("%s: the runner runs %q, which kubeplan did not write", what, c)
			continue
		}
		if data, ok := strings.CutPrefix(c, "::add-mask::"); ok && !slices.Contains(masks, data) {
			t.Errorf("%s: the runner masks %q", what, data)
		}
	}
	return cmds
}

// In GitHub mode no line lint prints, in any format, on stdout or stderr,
// apart or as one pipe, is a command kubeplan did not write; the same
// repository outside GitHub mode shows the attack is real. JSON and XML
// keep their meaning.
func TestGitHubLintHostile(t *testing.T) {
	t.Chdir(writeHostileRepo(t)) // paths as a workflow gives them: relative, so a name starts a line
	dir := "."
	t.Setenv("GITHUB_ACTIONS", "")
	if code, out := runCombined("lint", "-o", "text", dir); code != 1 || !slices.ContainsFunc(githubtest.RunnerCommands(out), func(c string) bool { return strings.HasPrefix(c, "  ::add-mask::prune") }) {
		t.Fatalf("outside GitHub mode: exit %d, and no line is a command, so the repository attacks nothing:\n%s", code, out)
	}

	// --output github alone is GitHub mode too.
	code, out := runCombined("lint", "--output=github", dir)
	if cmds := checkRunnerLog(t, "lint --output=github", out); code != 1 || len(cmds) != 5 {
		t.Errorf("lint --output=github: exit %d, %d commands, want 5 annotations:\n%s", code, len(cmds), out)
	}

	t.Setenv("GITHUB_ACTIONS", "true")
	t.Setenv("GITHUB_STEP_SUMMARY", filepath.Join(t.TempDir(), "summary"))
	t.Setenv("GITHUB_OUTPUT", filepath.Join(t.TempDir(), "output"))
	for _, format := range []string{"github", "text", "json", "sarif", "junit"} {
		code, out := runCombined("lint", "-o", format, dir)
		if code != 1 {
			t.Errorf("-o %s: exit %d, want 1 (lint errors)\n%s", format, code, out)
		}
		cmds := checkRunnerLog(t, "lint -o "+format, out)
		if format == "github" && len(cmds) != 5 {
			t.Errorf("-o github: %d commands, want one error annotation per finding (5):\n%s", len(cmds), out)
		}
		code, stdout, stderr := cli("lint", "-o", format, dir)
		checkRunnerLog(t, "lint -o "+format+" stdout", stdout)
		checkRunnerLog(t, "lint -o "+format+" stderr", stderr)
		switch format {
		case "json", "sarif":
			var v any
			if err := json.Unmarshal([]byte(stdout), &v); err != nil || !strings.Contains(stdout, `##\u005berror]forged`) {
				t.Errorf("-o %s: exit %d, not JSON with the escape (%v):\n%s", format, code, err, stdout)
			}
			var rep struct {
				Findings []struct{ Message string }
			}
			if format == "json" && (json.Unmarshal([]byte(stdout), &rep) != nil || !strings.Contains(rep.Findings[0].Message+rep.Findings[1].Message, "x ##[error]forged")) {
				t.Errorf("-o json: the message does not decode to what lint said:\n%s", stdout)
			}
		case "junit":
			if !strings.Contains(stdout, "##&#91;error]forged") {
				t.Errorf("-o junit: no XML escape:\n%s", stdout)
			}
		case "text":
			if !strings.Contains(stdout, "  %3A:add-mask::prune/x ##%5Berror]forged.yaml:5:3: error") {
				t.Errorf("-o text: not escaped as documented:\n%s", stdout)
			}
		}
	}
}

// outsideFences is md without its fenced code blocks, where GitHub would
// make mentions, HTML and headings.
func outsideFences(md string) string {
	var b strings.Builder
	fence := ""
	for line := range strings.SplitSeq(md, "\n") {
		t := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(t, fence) && strings.Trim(t, "`") == "" {
				fence = ""
			}
			continue
		}
		if run := len(t) - len(strings.TrimLeft(t, "`")); run >= 3 {
			fence = t[:run]
			continue
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

// checkHostileComment fails when md (a comment or job summary) mentions
// @octocat, or holds an HTML comment or a closing </details> kubeplan did
// not write, outside code.
func checkHostileComment(t *testing.T, what, md string) {
	t.Helper()
	text := outsideFences(md)
	text = regexp.MustCompile("`[^`\n]*`").ReplaceAllString(text, "") // code spans
	if strings.Contains(text, "@octocat") {
		t.Errorf("%s mentions @octocat outside code:\n%s", what, md)
	}
	if n := strings.Count(text, "<!--"); n > 1 || n == 1 && !strings.HasPrefix(md, "<!-- kubeplan:plan ") {
		t.Errorf("%s holds an HTML comment kubeplan did not write:\n%s", what, md)
	}
	if strings.Count(text, "<details") != strings.Count(text, "</details>") {
		t.Errorf("%s: <details> and </details> do not pair up:\n%s", what, md)
	}
}

// A plan in GitHub mode over a hostile repository, on the cluster: the
// values and diff context lines command nothing, the comment mentions
// nobody and cannot be broken out of, and a comment by someone else that
// carries kubeplan's marker is left as it is while kubeplan creates, then
// updates, its own.
func TestIntegrationGitHubPlanHostile(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	kc := c.Narrow(t, "gitops", ns)
	srv := githubtest.New(t, ghRepo, ghToken)
	sim := newGitHubSim(t, srv, "pull_request")
	kf := kube.Flags()
	kf.KubeConfig = &kc
	marker := fmt.Sprintf("<!-- kubeplan:plan cluster=%s namespace=%s applyset=configmap/gitops-applyset -->", kube.ContextName(kf), ns)
	fake := marker + "\n### kubeplan plan: no changes (a fake plan by someone else)"
	impostor := srv.AddComment(ghRepo, ghPR, "mallory", fake)

	dir := t.TempDir()
	t.Chdir(dir)
	block := strings.Join(hostileValues, "\n")
	write := func(version string) {
		v, _ := json.Marshal(block + "\nversion " + version + "\n" + block)
		for name, body := range map[string]string{
			"values.yaml":          "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: values}\ndata:\n  block: " + string(v) + "\n",
			"::error::forged.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: named, annotations: {note: \"@octocat ##[error]forged\"}}\ndata: {v: \"" + version + "\"}\n",
		} {
			if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	args := []string{"--kubeconfig", kc, "-n", ns, "--applyset", "configmap/gitops-applyset", "."}
	write("1")
	t.Setenv("GITHUB_EVENT_NAME", "push") // apply: no comment
	if code, out := runCombined(append([]string{"apply", "--timeout", "60s"}, args...)...); code != 0 {
		t.Fatalf("apply: exit %d\n%s", code, out)
	} else {
		checkRunnerLog(t, "apply", out, ghToken)
	}
	t.Setenv("GITHUB_EVENT_NAME", "pull_request")
	write("2") // the diff's context lines are the hostile ones

	for run := 1; run <= 2; run++ {
		code, out := runCombined(append([]string{"plan"}, args...)...)
		if code != 0 || !strings.Contains(out, "Plan: 0 to add, 2 to change, 0 to prune") {
			t.Fatalf("plan %d: exit %d\n%s", run, code, out)
		}
		if !strings.Contains(out, "   %3A:add-mask::prune\n") {
			t.Errorf("plan %d: the diff's context line is not in the log, escaped:\n%s", run, out)
		}
		checkRunnerLog(t, fmt.Sprintf("plan %d", run), out, ghToken)
		if !strings.Contains(out, "left alone 1 comment on pull request #7") {
			t.Errorf("plan %d does not say it left the impostor alone:\n%s", run, out)
		}
		code, stdout, stderr := cli(append([]string{"plan", "--comment=false"}, args...)...)
		checkRunnerLog(t, "plan stdout", stdout)
		checkRunnerLog(t, "plan stderr", stderr, ghToken)
		if code != 0 {
			t.Errorf("plan --comment=false: exit %d\n%s", code, stderr)
		}
	}
	cs := srv.Comments(ghRepo, ghPR)
	if len(cs) != 2 || cs[0].ID != impostor || cs[0].Body != fake || !cs[0].UpdatedAt.Equal(cs[0].CreatedAt) {
		t.Fatalf("comments %+v: want the impostor's untouched, then kubeplan's", cs)
	}
	ours := cs[1]
	if ours.Login != "github-actions[bot]" || !strings.HasPrefix(ours.Body, marker+"\n### kubeplan plan: ") || !strings.Contains(ours.Body, "version 2") {
		t.Errorf("kubeplan's comment by %s:\n%s", ours.Login, ours.Body)
	}
	for _, call := range srv.Calls() {
		if strings.HasPrefix(call, "PATCH") && call != fmt.Sprintf("PATCH /repos/%s/issues/comments/%d", ghRepo, ours.ID) {
			t.Errorf("edited a comment that is not kubeplan's: %s", call)
		}
	}
	if !slices.Contains(srv.Calls(), fmt.Sprintf("PATCH /repos/%s/issues/comments/%d", ghRepo, ours.ID)) {
		t.Errorf("the second plan did not update kubeplan's comment: %q", srv.Calls())
	}
	checkHostileComment(t, "the comment", ours.Body)
	checkHostileComment(t, "the job summary", sim.read(t, sim.summary))

	// -o json in GitHub mode: still JSON, and the values decode as written.
	code, stdout, _ := cli(append([]string{"plan", "--comment=false", "-o", "json"}, args...)...)
	checkRunnerLog(t, "plan -o json", stdout)
	var doc any
	if code != 0 || json.Unmarshal([]byte(stdout), &doc) != nil || !strings.Contains(stdout, `x ##\u005berror]forged`) {
		t.Errorf("plan -o json: exit %d\n%s", code, stdout)
	}
}

// hostileReport is a run whose names, diffs, drift and errors hold
// hostileValues, as a matrix job's plan files bring them to kubeplan
// comment.
func hostileReport() *run.Report {
	block := strings.Join(hostileValues, "\n")
	diff := "--- live\n+++ planned\n@@ -1,9 +1,9 @@\n"
	for _, v := range hostileValues {
		diff += " " + v + "\n"
	}
	diff += "-v: 1\n+v: 2\n"
	ref := plan.Ref{Version: "v1", Kind: "ConfigMap", Resource: "configmaps", Namespace: "shop", Name: "values"}
	web := run.ProjectReport{Project: project.Project{Name: "web ::error::forged ##[error]forged @octocat", Path: "web"}, Cluster: "prod",
		Namespace: "shop", Status: run.Changes, Plan: &plan.Plan{Version: plan.FormatVersion, Namespace: "shop", Changes: []plan.Change{
			{Ref: ref, Action: plan.Update, Source: plan.Source{File: "  ::add-mask::prune/x ##[error]forged.yaml", Line: 1}, Diff: diff,
				Drift: []plan.Drift{{Field: "data.v", Live: block, Want: "2", Manager: block}}},
		}}}
	api := run.ProjectReport{Project: project.Project{Name: "api", Path: "api"}, Cluster: "prod", Namespace: "shop", Status: run.Failed, Error: block}
	return &run.Report{Version: run.FormatVersion, Projects: []run.ProjectReport{web, api}}
}

// kubeplan comment merges hostile plan files into the run's comment: the
// log commands nothing, the comment mentions nobody, and a comment by
// someone else carrying the run's marker is left alone.
func TestGitHubCommentHostile(t *testing.T) {
	plans := t.TempDir()
	if err := run.SaveDir(plans, hostileReport()); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(t.TempDir(), "kubeplan.yaml")
	t.Setenv("GITHUB_WORKFLOW", "kubeplan")

	// Which marker the run's comment has, learnt on a first server.
	first := githubtest.New(t, ghRepo, ghToken)
	newGitHubSim(t, first, "pull_request")
	if code, out := runCombined("comment", "--config", cfg, plans); code != 1 || len(first.Comments(ghRepo, ghPR)) != 1 {
		t.Fatalf("comment: exit %d (want 1: a project failed)\n%s", code, out)
	}
	marker, _, _ := strings.Cut(first.Comments(ghRepo, ghPR)[0].Body, "\n")

	srv := githubtest.New(t, ghRepo, ghToken)
	sim := newGitHubSim(t, srv, "pull_request")
	fake := marker + "\n### kubeplan plan: no changes (a fake plan by someone else)"
	impostor := srv.AddComment(ghRepo, ghPR, "mallory", fake)
	for i := 1; i <= 2; i++ {
		code, out := runCombined("comment", "--config", cfg, plans)
		if code != 1 || !strings.Contains(out, "left alone 1 comment on pull request #7") {
			t.Errorf("comment %d: exit %d\n%s", i, code, out)
		}
		if cmds := checkRunnerLog(t, "kubeplan comment", out, ghToken); len(cmds) == 0 {
			t.Errorf("comment %d wrote no command at all (the drift warning is missing):\n%s", i, out)
		}
	}
	cs := srv.Comments(ghRepo, ghPR)
	if len(cs) != 2 || cs[0].ID != impostor || cs[0].Body != fake || cs[1].Login != "github-actions[bot]" || !strings.HasPrefix(cs[1].Body, marker+"\n") {
		t.Fatalf("comments %+v: want the impostor's untouched, then kubeplan's", cs)
	}
	if calls := srv.Calls(); !slices.Contains(calls, fmt.Sprintf("PATCH /repos/%s/issues/comments/%d", ghRepo, cs[1].ID)) ||
		slices.Contains(calls, fmt.Sprintf("PATCH /repos/%s/issues/comments/%d", ghRepo, impostor)) {
		t.Errorf("requests %q: want kubeplan's comment updated, the impostor's never", calls)
	}
	checkHostileComment(t, "the merged comment", cs[1].Body)
	checkHostileComment(t, "the job summary", sim.read(t, sim.summary))
	if !strings.Contains(cs[1].Body, "@&#8203;octocat") {
		t.Errorf("the merged comment does not show the mention escaped:\n%s", cs[1].Body)
	}
}
