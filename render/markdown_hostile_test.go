package render

import (
	"regexp"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/lint"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/run"
)

// hostile is what a pull request can put into a value, a name, a message.
const hostile = "@octocat @acme/admins ＠fullwidth #12 acme/shop#3 ``` <!-- kubeplan:plan scope=x --> <details><summary>x</summary> ::error::forged ##[error]forged"

// hostileDiff closes a ``` fence and opens HTML, mentions and a heading.
const hostileDiff = "--- live\n+++ git\n@@ -1,2 +1,2 @@\n data:\n-  a: old\n+  a: |\n```\n# forged heading @octocat\n</details>\n<!-- kubeplan:plan cluster=- namespace=store applyset=- -->\n~~~\n"

func hostilePlan() *plan.Plan {
	p := planFixture()
	p.Warnings = []plan.Warning{{Message: hostile, Source: plan.Source{File: "x@octocat.yaml", Line: 1}}}
	for i := range p.Changes {
		c := &p.Changes[i]
		if c.Ref.Name == "readme" {
			c.Diff = hostileDiff
			c.Drift = []plan.Drift{{Field: "data.@octocat", Live: hostile, Want: "``` @octocat", Manager: hostile}}
		}
		if c.Ref.Name == "api" {
			c.Reason = hostile
		}
	}
	return p
}

var (
	fenceLine = regexp.MustCompile("^\\s*(`{3,}|~{3,})")
	codeSpan  = regexp.MustCompile("(`+)[^`]*?(`+)")
)

// outsideCode is md without its fenced code blocks and code spans: where
// GitHub makes mentions, references, HTML and headings.
func outsideCode(md string) string {
	var b strings.Builder
	fence := ""
	for line := range strings.SplitSeq(md, "\n") {
		if fence != "" {
			if t := strings.TrimSpace(line); strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
				fence = ""
			}
			continue
		}
		if m := fenceLine.FindStringSubmatch(line); m != nil {
			fence = m[1]
			continue
		}
		line = strings.ReplaceAll(line, "\\`", "") // an escaped backtick opens no code span
		b.WriteString(codeSpan.ReplaceAllString(line, "") + "\n")
	}
	return b.String()
}

// checkHostileMarkdown fails when text from the repository escaped its
// code or text in md: a live mention or reference, an HTML comment, a
// <details> block kubeplan did not write, the forged heading.
func checkHostileMarkdown(t *testing.T, md string, details int) {
	t.Helper()
	text := outsideCode(md)
	for _, bad := range []*regexp.Regexp{
		regexp.MustCompile(`[@＠]($|[^&])`), regexp.MustCompile(`(^|[^&])#[0-9]`), regexp.MustCompile(`<!--`),
		regexp.MustCompile(`(?m)^# forged`), regexp.MustCompile(`<details><summary>x`),
	} {
		if m := bad.FindString(text); m != "" {
			t.Errorf("markdown outside code holds %q (%s):\n%s", m, bad, md)
		}
	}
	if n := strings.Count(text, "<details"); n != details {
		t.Errorf("%d <details> blocks outside code, want %d:\n%s", n, details, md)
	}
	if !strings.Contains(md, "@&#8203;octocat") {
		t.Errorf("the mention is not shown escaped:\n%s", md)
	}
}

func TestPlanMarkdownHostile(t *testing.T) {
	p := hostilePlan()
	md := string(renderPlan(t, "markdown", p, PlanOptions{}))
	checkHostileMarkdown(t, md, 5) // one per diff
	if !strings.Contains(md, "\n````diff\n") {
		t.Errorf("the diff holding ``` is not in a longer fence:\n%s", md)
	}
}

func TestLintMarkdownHostile(t *testing.T) {
	var b strings.Builder
	rep := lint.Report{Findings: []lint.Finding{{File: "a/@octocat ``` x.yaml", Line: 1, Col: 1, Severity: lint.Error, Rule: "schema",
		Message: hostile + "\nsecond line " + hostile, Object: "configmap/@octocat"}}}
	if err := LintMarkdown(&b, rep, 0); err != nil {
		t.Fatal(err)
	}
	checkHostileMarkdown(t, b.String(), 0)
}

func TestRunMarkdownHostile(t *testing.T) {
	r := &run.Report{Projects: []run.ProjectReport{
		{Project: project.Project{Name: "@octocat-#1"}, Cluster: "prod", Namespace: "store", Status: run.Changes, Plan: hostilePlan()},
		{Project: project.Project{Name: "broken"}, Cluster: "prod", Namespace: "x", Status: run.Failed, Error: hostile},
	}}
	var b strings.Builder
	if err := RunPlan(&b, "markdown", r, RunOptions{}); err != nil {
		t.Fatal(err)
	}
	checkHostileMarkdown(t, b.String(), 5+2) // the diffs, one per project
}
