package render

import (
	"fmt"
	"strings"
	"time"

	"github.com/kubeplan/kubeplan/notify"
)

// StatusDescription is the commit status of run r: "applied: 1 applied,
// 0 pruned, 9 unchanged[, drift taken back]", or "kubeplan could not
// apply: " and the first line of errText, its scrubbed error, or for a
// failed health wait "kubeplan: unhealthy: " and its first workload's
// FailureLine ("kubeplan: unhealthy at stage wave 1: " for a failed
// ordered run's wait; its error leads with the stage already).
func (NotifyWords) StatusDescription(r notify.Run, errText string) string {
	if r.Err != nil && len(r.Failures) > 0 {
		if r.Stage != "" {
			return "kubeplan: unhealthy at stage " + r.Stage + ": " + failuresLine(r.Failures, 100)
		}
		return "kubeplan: unhealthy: " + failuresLine(r.Failures, 120)
	}
	if r.Err != nil {
		first, _, _ := strings.Cut(errText, "\n")
		return "kubeplan could not apply: " + first
	}
	s := fmt.Sprintf("applied: %d applied, %d pruned, %d unchanged", r.Applied, r.Pruned, r.Unchanged)
	if r.Drift {
		s += ", drift taken back"
	}
	return s
}

// DriftTitle is the title of project's drift issue, how it is found again.
func (NotifyWords) DriftTitle(project string) string {
	return "kubeplan: drift repair of project " + project + " is failing"
}

// DriftBody is the drift issue's text for run r, failing since since,
// with errText, its scrubbed error, in a code block.
func (NotifyWords) DriftBody(r notify.Run, errText string, since time.Time) string {
	var b strings.Builder
	fmt.Fprintf(&b, "kubeplan serve could not repair drift in project `%s`: its scheduled run failed.\n\n", r.Project)
	b.WriteString("| | |\n|---|---|\n")
	for _, row := range [][2]string{{"Revision", r.Revision}, {"Cluster", r.Cluster}, {"Namespace", r.Namespace},
		{"ApplySet", r.ApplySet}, {"Stopped at stage", r.Stage}, {"Failing since", since.UTC().Format(time.RFC3339)}} {
		if row[1] != "" {
			fmt.Fprintf(&b, "| %s | `%s` |\n", row[0], row[1])
		}
	}
	if len(r.Failures) > 0 {
		b.WriteString("\nFailed workloads:\n\n")
		for _, f := range r.Failures {
			fmt.Fprintf(&b, "- %s", mdText(f.Summary))
			if f.Source != "" {
				fmt.Fprintf(&b, " (at %s)", mdCode(f.Source, false))
			}
			b.WriteString("\n")
		}
	}
	msg := strings.ReplaceAll(errText, "```", "'''")
	fmt.Fprintf(&b, "\n```\n%s\n```\n\nThis issue is closed when the project runs successfully again.\n", msg)
	return b.String()
}

// DriftClosed is the comment closing the drift issue when run r succeeded.
func (NotifyWords) DriftClosed(r notify.Run) string {
	return fmt.Sprintf("Project `%s` recovered: revision `%s` applied at %s (%d applied, %d pruned, %d unchanged). Closing.",
		r.Project, abbrev(r.Revision), r.End.UTC().Format(time.RFC3339), r.Applied, r.Pruned, r.Unchanged)
}

// YieldTitle is the title of project's issue about fields serve takes back
// from another controller every run.
func (NotifyWords) YieldTitle(project string) string {
	return "kubeplan: project " + project + " keeps taking fields back from another controller"
}

// YieldBody is that text: the suggested rules (scrubbed hints),
// one per field.
func (NotifyWords) YieldBody(r notify.Run, hints []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "kubeplan serve took the fields below back from another field manager in three runs in a row, in project `%s` (revision `%s`, cluster `%s`, namespace `%s`). Either leave them to that controller with the `yield:` rule shown, or stop it from writing them.\n\n",
		r.Project, abbrev(r.Revision), r.Cluster, r.Namespace)
	for _, h := range hints {
		fmt.Fprintf(&b, "- %s\n", h)
	}
	b.WriteString("\nSee docs/yield.md. Close this issue once decided; serve says each field once.\n")
	return b.String()
}
