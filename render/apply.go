package render

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/internal/guard"
	"github.com/kubeplan/kubeplan/run"
	"github.com/kubeplan/kubeplan/source"
)

// ApplyVersion is the version of apply's -o json document; see
// docs/output.md.
const ApplyVersion = 1

// ApplyReport is one apply run as the views show it: the engine's result
// and what it ran against.
type ApplyReport struct {
	Namespace string
	ApplySet  string // "configmap/gitops-applyset", "" for none
	// Result is what apply did; nil when it failed before writing.
	Result *apply.Result
	// Revision is the commit applied, when known.
	Revision *source.Revision
	// Err is why the run failed, "" when it did not (secrets scrubbed).
	Err string
	// FailedStage is the stage a failed ordered run stopped at ("wave 1",
	// docs/ordering.md), "" for a run without stages; SyncFail how its
	// SyncFail hooks went (apply.SyncFailSucceeded, apply.SyncFailFailed).
	// applyReportOf fills both from the run's error (apply.StoppedAt).
	FailedStage, SyncFail string
}

// applyReportOf is the ApplyReport of project p's apply, the stage it
// stopped at read from its error, which then reads as the parent records
// it: "stage wave 1: ..." (apply.StageText).
func applyReportOf(p run.ProjectReport) ApplyReport {
	r := ApplyReport{Namespace: p.Namespace, ApplySet: p.ApplySet, Result: p.Result, Err: p.Error}
	r.FailedStage, r.SyncFail = apply.StoppedAt(p.Err)
	if r.FailedStage != "" && p.Error == p.Err.Error() {
		r.Err = apply.StageText(p.Err)
	}
	return r
}

// pending are the verdicts that held back what the run withheld.
func (r ApplyReport) pending() []guard.Verdict {
	if r.Result == nil {
		return nil
	}
	return r.Result.Pending
}

func (r ApplyReport) objects() []apply.ObjectResult {
	if r.Result == nil {
		return nil
	}
	return r.Result.Objects
}

// ApplyFormats are the --output values of kubeplan apply.
func ApplyFormats() []string { return []string{"text", "json"} }

// Apply writes the report in format: text (one line per object, a
// withheld prune naming the rule and the flag that approves it, the
// summary, the approvals and window override the run used and the
// verdicts still waiting for one (approvalsText), "in sync with SHA
// subject" when read from git, or the stage a failed ordered run stopped
// at) or json (with "failedStage", "approvals" and "pendingApprovals").
func Apply(w io.Writer, format string, r ApplyReport) error {
	switch format {
	case "json":
		return applyJSON(w, r)
	case "text":
		return applyText(w, r)
	}
	return errApplyFormat(format)
}

// errApplyFormat is the error for an --output apply does not know.
func errApplyFormat(format string) error {
	return fmt.Errorf("unknown apply format %q: want one of %s", format, strings.Join(ApplyFormats(), ", "))
}

func applyText(w io.Writer, r ApplyReport) error {
	var b strings.Builder
	diags := diagnoses(r.Result)
	for _, o := range r.objects() {
		if o.Detail != "" {
			fmt.Fprintf(&b, "%s %s (%s)\n", o.Ref, o.Outcome, printable(o.Detail))
			continue
		}
		if v, ok := withheldFor(r.pending(), o.Ref); ok && o.Outcome == apply.Withheld {
			fmt.Fprintf(&b, "%s %s (%s)\n", o.Ref, o.Outcome, printable(v.Rule+": "+approveFlag(v.Rule)))
			continue
		}
		fmt.Fprintf(&b, "%s %s\n", o.Ref, o.Outcome)
		if d := diags[o.Ref]; d != nil {
			diagnosisText(&b, d)
		}
	}
	b.WriteString(ApplySummary(r.Result) + "\n")
	if res := r.Result; res != nil {
		approvalsText(&b, "", res.Approvals, res.Pending, false)
	}
	if r.FailedStage != "" {
		b.WriteString("Stopped at " + stoppedAtText(r.FailedStage, r.SyncFail) + ".\n")
	}
	if r.Revision != nil && r.Err == "" {
		fmt.Fprintf(&b, "in sync with %s %s\n", r.Revision.ShortSHA, printable(r.Revision.Subject))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

type jsonApplyDoc struct {
	Version int `json:"version"`
	*apply.Result
	Revision *jsonRevision `json:"revision,omitempty"`
	Error    string        `json:"error,omitempty"`
	// FailedStage is the stage a failed ordered run stopped at.
	FailedStage string `json:"failedStage,omitempty"`
}

type jsonRevision struct {
	SHA     string `json:"sha"`
	Subject string `json:"subject,omitempty"`
	Author  string `json:"author,omitempty"`
	Time    string `json:"time,omitempty"`
}

func revisionJSON(rev *source.Revision) *jsonRevision {
	if rev == nil {
		return nil
	}
	j := &jsonRevision{SHA: rev.SHA, Subject: rev.Subject, Author: rev.Author}
	if !rev.Time.IsZero() {
		j.Time = rev.Time.UTC().Format("2006-01-02T15:04:05Z")
	}
	return j
}

func applyJSON(w io.Writer, r ApplyReport) error {
	res := r.Result
	if res == nil {
		res = &apply.Result{}
	}
	if res.Objects == nil {
		cp := *res
		cp.Objects = []apply.ObjectResult{}
		res = &cp
	}
	return writeJSON(w, jsonApplyDoc{Version: ApplyVersion, Result: res, Revision: revisionJSON(r.Revision), Error: r.Err, FailedStage: r.FailedStage})
}

// ApplySummary is the last line of kubeplan apply:
// "Apply: 1 created, 1 configured, 0 pruned, 3 unchanged.", naming
// replaced objects only when there are some ("..., 1 replaced, 0 pruned, ..."),
// and so withheld, released and skipped ones ("..., 0 pruned, 1 withheld,
// 1 released, 1 skipped, ..."): a withheld prune awaits an approval.
func ApplySummary(res *apply.Result) string {
	var objs []apply.ObjectResult
	if res != nil {
		objs = res.Objects
	}
	return "Apply: " + applyCounts(objs)
}

// applyCounts is ApplySummary without "Apply: ".
func applyCounts(objs []apply.ObjectResult) string {
	n := map[apply.Outcome]int{}
	for _, o := range objs {
		n[o.Outcome]++
	}
	replaced := ""
	if n[apply.Replaced] > 0 {
		replaced = fmt.Sprintf("%d replaced, ", n[apply.Replaced])
	}
	more := ""
	if n[apply.Withheld] > 0 {
		more += fmt.Sprintf("%d withheld, ", n[apply.Withheld])
	}
	if n[apply.Released] > 0 {
		more += fmt.Sprintf("%d released, ", n[apply.Released])
	}
	if n[apply.Skipped] > 0 {
		more += fmt.Sprintf("%d skipped, ", n[apply.Skipped])
	}
	return fmt.Sprintf("%d created, %d configured, %s%d pruned, %s%d unchanged.", n[apply.Created], n[apply.Configured], replaced, n[apply.Pruned], more, n[apply.Unchanged])
}

func writeJSON(w io.Writer, v any) error { return encodeJSON(w, v, "  ", true) }

// writeJSONRaw is writeJSON without HTML escaping (<, > and & as they
// are), as the plan and lint JSON.
func writeJSONRaw(w io.Writer, v any) error { return encodeJSON(w, v, "  ", false) }

// encodeJSON writes v as one JSON document and a newline, indented by
// indent ("" for none), escaping <, > and & when html.
func encodeJSON(w io.Writer, v any, indent string, html bool) error {
	enc := json.NewEncoder(w)
	if indent != "" {
		enc.SetIndent("", indent)
	}
	enc.SetEscapeHTML(html)
	return enc.Encode(v)
}
