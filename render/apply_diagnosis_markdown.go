package render

import (
	"fmt"
	"strings"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/health"
)

// diagnosisSection is the "Why it failed" section of an apply's markdown:
// for every workload whose health wait failed with a diagnosis, in the
// wait's order, a heading row, one row per cause, a row of events and one
// of missing permissions. Rows are the unit the byte budget cuts (a prefix
// is kept, "…and N more" says how many went), so many causes never push
// out the first ones.
func diagnosisSection(res *apply.Result) *mdSection {
	s := &mdSection{one: "diagnosis block", many: "diagnosis blocks", tail: true, intro: "\n#### Why it failed\n"}
	if res == nil {
		return s
	}
	for _, h := range res.Health {
		if h.Diagnosis == nil {
			continue
		}
		s.rows = append(s.rows, diagnosisMarkdownRows(h)...)
	}
	return s
}

// diagnosisMarkdownRows are one workload's rows:
//
//	**❌ `deployment.apps/web` failed: CrashLoopBackOff**, defined at `deploy/web.yaml:10:1`
//
//	Container `main`: **CrashLoopBackOff**: back-off 10s restarting … (2 pods)
//
//	Pod `web-7d9c-abcde`, 3 restarts, exit code 1.
//
//	Log (last 2 lines, previous instance):
//
//	```text
//	connecting with password ***
//	```
//
//	| event | reason | count | note |
//	|---|---|---|---|
//	| `Pod/web-7d9c-abcde` | BackOff | 3 | Back-off restarting failed container … |
//
// Every text from the cluster is untrusted: names are code spans (or
// escaped), messages and notes escaped with mdText (no markdown, HTML,
// mentions or control characters), the log and termination message in a
// fenced block whose fence is longer than any backtick run in them.
// Secret values were masked by the engine.
func diagnosisMarkdownRows(h health.Result) []string {
	d := h.Diagnosis
	head := "\n**❌ " + mdCode(h.Ref.String(), false) + " failed: " + mdText(health.FailureReason(h)) + "**"
	if d.Source != "" {
		head += ", defined at " + mdCode(d.Source, false)
	}
	rows := []string{head + "\n"}
	for _, c := range d.Causes {
		rows = append(rows, causeMarkdown(c))
	}
	if len(d.Events) > 0 {
		var b strings.Builder
		b.WriteString("\n| event | reason | count | note |\n|---|---|---|---|\n")
		for _, e := range d.Events {
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", mdCode(e.Object, true), mdText(e.Reason), thousands(max(1, e.Count)), mdText(e.Note))
		}
		rows = append(rows, b.String())
	}
	if len(d.Missing) > 0 {
		var b strings.Builder
		for _, m := range d.Missing {
			b.WriteString("\n⚠️ " + mdText(m) + "\n")
		}
		rows = append(rows, b.String())
	}
	return rows
}

// causeMarkdown is one cause: the container and reason, the pod's facts,
// the termination message and the log tail.
func causeMarkdown(c health.Cause) string {
	var b strings.Builder
	b.WriteString("\n")
	if c.Container != "" {
		kind := "Container"
		if c.Init {
			kind = "Init container"
		}
		b.WriteString(kind + " " + mdCode(c.Container, false) + ": ")
	}
	b.WriteString("**" + mdText(c.Reason) + "**")
	if c.Message != "" {
		b.WriteString(": " + mdText(c.Message))
	}
	if c.Pods > 1 {
		fmt.Fprintf(&b, " (%s pods)", thousands(c.Pods))
	}
	b.WriteString("\n")
	var facts []string
	if c.Pod != "" {
		facts = append(facts, "Pod "+mdCode(c.Pod, false))
	}
	if c.Restarts > 0 {
		facts = append(facts, plural(int(c.Restarts), "restart"))
	}
	if c.ExitCode != 0 {
		facts = append(facts, fmt.Sprintf("exit code %d", c.ExitCode))
	}
	if len(facts) > 0 {
		b.WriteString("\n" + strings.Join(facts, ", ") + ".\n")
	}
	if c.TerminationMessage != "" {
		b.WriteString("\nTermination message:\n\n" + mdCodeBlock(diffLines(c.TerminationMessage)))
	}
	if len(c.Log) > 0 {
		which := ""
		if c.Previous {
			which = ", previous instance"
		}
		fmt.Fprintf(&b, "\nLog (last %s%s):\n\n%s", plural(len(c.Log), "line"), which, mdCodeBlock(c.Log))
	}
	if c.LogNote != "" {
		b.WriteString("\n" + mdText(c.LogNote) + "\n")
	}
	return b.String()
}

// mdCodeBlock is lines in a fenced text block that nothing in them can
// end: the fence is longer than any run of backticks in them, and control
// characters are shown as escapes (a line is never split in two).
func mdCodeBlock(lines []string) string {
	shown := make([]string, len(lines))
	for i, l := range lines {
		shown[i] = printable(l)
	}
	fence := mdFence(shown)
	return fence + "text\n" + strings.Join(shown, "\n") + "\n" + fence + "\n"
}
