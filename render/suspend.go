package render

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/run"
)

// Suspends shows what kubeplan suspend, resume or sync --via-serve did
// (verb: suspended, resumed, synced), one line per set, as text or json
// ({"sets": [...]}). A set that failed is a line with its error in text
// only when there are several: a single set's error is the command's.
//
//	project web suspended by alice: "incident 123" since 2026-12-02T10:00Z
//	project api resumed (was suspended by alice: "incident 123" since 2026-12-02T10:00Z)
//	project web synced by kubeplan serve at 2026-12-02T10:01:02Z: ok
func Suspends(w io.Writer, format, verb string, rs []run.SuspendReport) error {
	if format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string]any{"sets": rs})
	}
	var b strings.Builder
	for _, r := range rs {
		if r.Err != nil && len(rs) == 1 {
			continue
		}
		b.WriteString(printable(suspendLine(verb, r)) + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func suspendLine(verb string, r run.SuspendReport) string {
	what := "project " + r.Project
	if r.Project == "" {
		what = r.ApplySet + " in namespace " + r.Namespace
	}
	switch {
	case r.Err != nil:
		return what + ": " + r.Error
	case verb == "suspended":
		s := what + " suspended " + SuspensionText(r.Now)
		if r.Before != nil {
			s += " (was suspended " + SuspensionText(r.Before) + ")"
		}
		return s
	case verb == "resumed" && r.Before == nil:
		return what + " was not suspended: nothing to resume"
	case verb == "resumed":
		return what + " resumed (was suspended " + SuspensionText(r.Before) + ")"
	case r.Sync != nil:
		return fmt.Sprintf("%s synced by kubeplan serve at %s: %s", what, r.Sync.At, r.Sync.Result)
	}
	return what + " " + verb
}

// SuspensionText is `by alice: "incident 123" since 2026-12-02T10:00Z`.
func SuspensionText(s *plan.Suspension) string {
	if s == nil {
		return ""
	}
	var parts []string
	if s.By != "" {
		parts = append(parts, "by "+s.By)
	}
	t := strings.Join(parts, "")
	if s.Reason != "" {
		if t != "" {
			t += ": "
		}
		t += fmt.Sprintf("%q", s.Reason)
	}
	if s.At != "" {
		t += " since " + s.Since()
	}
	return strings.TrimSpace(t)
}

// suspendRecordLine is a suspension's record in the parent's history
// (apply.ApprovalRecord.Suspend), as status lists it:
//
//	Suspended: incident 123 — by alice, 2026-12-02T10:00:00Z
//	Resumed — by bob, 2026-12-02T11:00:00Z
//	Applied while suspended: hotfix — by ops via --ignore-suspend, revision abc1234, 2026-12-02T10:30:00Z
func suspendRecordLine(r apply.ApprovalRecord, when bool) string {
	s := map[string]string{apply.SuspendSuspended: "Suspended", apply.SuspendResumed: "Resumed", apply.SuspendIgnored: "Applied while suspended"}[r.Suspend]
	if s == "" {
		s = "Suspension " + r.Suspend
	}
	if r.Reason != "" {
		s += ": " + r.Reason
	}
	var who []string
	if r.By != "" {
		by := "by " + r.By
		if r.Suspend == apply.SuspendIgnored {
			by += " via --ignore-suspend"
		}
		who = append(who, by)
	}
	if when {
		if r.Revision != "" {
			who = append(who, "revision "+shortSHA(r.Revision))
		}
		if r.At != "" {
			who = append(who, r.At)
		}
	}
	if len(who) > 0 {
		s += " — " + strings.Join(who, ", ")
	}
	return printable(s)
}

// suspensionOf is a project's suspension as its plan or status read it.
func suspensionOf(p run.ProjectReport) *plan.Suspension {
	switch {
	case p.Plan != nil && p.Plan.Parent != nil:
		return p.Plan.Parent.Suspended
	case p.Health != nil:
		return p.Health.Suspended
	}
	return nil
}
