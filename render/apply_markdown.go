package render

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/internal/guard"
)

// ApplyMarkdown writes the apply as a GitHub job summary:
//
//	### kubeplan apply: namespace `store`, ApplySet `configmap/gitops-applyset`
//
//	**Apply: 1 created, 1 configured, 1 pruned, 3 unchanged.**
//
//	In sync with `3f2c1e0` fix the price.
//
//	| object | result |
//	|---|---|
//	| `deployment.apps/web` | 🔄 configured |
//
//	<details><summary>3 unchanged</summary> ... </details>
//
// The approvals and change-window override the run used, and the
// verdicts still waiting for an approval (what serve withheld), are
// listed under the summary line (mdApprovals). A failed apply says so
// under the summary line (a failed ordered run:
// the stage it stopped at) and, for every workload
// whose health wait failed, says why under "Why it failed"
// (diagnosisSection) before the table. The output never exceeds maxBytes
// (0: no limit): rows are cut from the end, unchanged ones first, and a
// line says how many were left out.
func ApplyMarkdown(w io.Writer, r ApplyReport, maxBytes int) error {
	return applyMarkdown(w, r, maxBytes, "")
}

// applyMarkdown is ApplyMarkdown whose note, when rows are left out, names
// limitName as the limit ("" names the job summary's).
func applyMarkdown(w io.Writer, r ApplyReport, maxBytes int, limitName string) error {
	var head strings.Builder
	head.WriteString(mdTitle("apply", r.Namespace, r.ApplySet, ""))
	head.WriteString("\n\n**" + ApplySummary(r.Result) + "**\n")
	if r.Err != "" && r.FailedStage != "" {
		msg := strings.TrimPrefix(r.Err, "stage "+r.FailedStage+": ")
		head.WriteString("\n> [!CAUTION]\n> The apply stopped at " + mdText(stoppedAtText(r.FailedStage, r.SyncFail)) + ": " +
			strings.Join(mdLines(msg), "<br>") + "\n")
	} else if r.Err != "" {
		head.WriteString("\n> [!CAUTION]\n> The apply failed: " + strings.Join(mdLines(r.Err), "<br>") + "\n")
	} else if r.Revision != nil {
		head.WriteString("\nIn sync with " + mdCode(r.Revision.ShortSHA, false) + " " + mdText(r.Revision.Subject) + "\n")
	}
	if res := r.Result; res != nil {
		head.WriteString(mdApprovals(res.Approvals, res.Pending))
	}
	changed := &mdSection{one: "row", many: "rows", tail: true, intro: "\n| object | result |\n|---|---|\n"}
	same := &mdSection{one: "unchanged object", many: "unchanged objects", tail: true}
	for _, o := range r.objects() {
		if o.Outcome == apply.Unchanged {
			same.rows = append(same.rows, "- "+mdCode(o.Ref.String(), false)+"\n")
			continue
		}
		outcome := applyOutcome(o.Outcome)
		if o.Detail != "" {
			outcome += " (" + mdText(o.Detail) + ")"
		}
		changed.rows = append(changed.rows, fmt.Sprintf("| %s | %s |\n", mdCode(o.Ref.String(), true), outcome))
	}
	if len(same.rows) > 0 {
		same.intro = fmt.Sprintf("\n<details><summary>%s unchanged</summary>\n\n", thousands(len(same.rows)))
		same.outro = "\n</details>\n"
	}
	if maxBytes <= 0 {
		maxBytes = math.MaxInt
	}
	if limitName == "" {
		limitName = "the job summary's 1 MiB limit"
	}
	secs := []*mdSection{diagnosisSection(r.Result), changed, same}
	out := mdFit(head.String(), secs, maxBytes, mdNoteText{why: limitName, what: "list", where: "the job log"})
	_, err := io.WriteString(w, out)
	return err
}

func applyOutcome(o apply.Outcome) string {
	switch o {
	case apply.Created:
		return "➕ created"
	case apply.Configured:
		return "🔄 configured"
	case apply.Replaced:
		return "♻️ replaced"
	case apply.Pruned:
		return "🗑️ pruned"
	case apply.Released:
		return "🏷️ " + mdText(string(o))
	case apply.Skipped:
		return "⏭️ skipped"
	case apply.Withheld:
		return "✋ " + mdText(string(o))
	}
	return mdText(string(o))
}

// mdApprovals lists the approvals and override a run used and the
// verdicts still waiting for an approval, at most maxApprovalLines and
// maxGuardLines of them, each escaped:
//
//   - ✅ Approved protect-pvc: volume moved — by @alice via review on PR #12 (persistentvolumeclaim/data)
//   - ✋ Pending approval mass-prune: the plan: ... (approve: --approve mass-prune=REASON)
func mdApprovals(as []apply.ApprovalRecord, pending []guard.Verdict) string {
	approved, waiting := approvalLines(as, pending, false)
	if len(approved)+len(waiting) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n")
	for _, group := range []struct {
		mark  string
		lines []string
	}{{"✅ ", approved}, {"✋ ", waiting}} {
		for _, l := range group.lines {
			if strings.HasPrefix(l, "... ") {
				b.WriteString("- " + mdText(l) + "\n")
				continue
			}
			b.WriteString("- " + group.mark + mdText(l) + "\n")
		}
	}
	return b.String()
}
