package render

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/kubeplan/kubeplan/apply"
)

// StatusVersion is the version of status's -o json document; see
// docs/output.md.
const StatusVersion = 1

// Status writes what kubeplan status shows, as text or json.
func Status(w io.Writer, format string, st *apply.Status) error {
	switch format {
	case "json":
		return writeJSON(w, struct {
			Version int `json:"version"`
			*apply.Status
		}{StatusVersion, st})
	case "text":
		return statusText(w, st)
	}
	return fmt.Errorf("unknown status format %q: want text or json", format)
}

// statusText writes the parent's record, the members with their health,
// the approvals and change-window overrides recorded (newest first, at
// most maxApprovalLines) and the verdicts the last run found no approval
// for, then why the last run failed:
//
//	ApplySet:  configmap/kubeplan-shop in namespace shop (kubeplan/v1.2.0)
//	...
//	Members:   2
//	  deployment.apps/web  Current  Deployment is available. Replicas: 3
//	Approved protect-pvc: volume moved — by @alice via review on PR #12, revision abc1234, 2026-12-02T10:00:00Z (persistentvolumeclaim/data)
//	Applied outside the change windows: hotfix — by ops via --outside-window, revision abc1234, 2026-12-01T23:00:00Z
//	Pending approval mass-prune: the plan: ... (approve: --approve mass-prune=REASON)
func statusText(w io.Writer, st *apply.Status) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "ApplySet:\t%s in namespace %s (%s)\n", st.ApplySet, st.Namespace, st.Tooling)
	fmt.Fprintf(tw, "Revision:\t%s\n", orNone(st.Revision))
	fmt.Fprintf(tw, "Applied:\t%s\n", orNone(st.AppliedAt))
	fmt.Fprintf(tw, "Checked:\t%s\n", orNone(st.CheckedAt))
	fmt.Fprintf(tw, "Result:\t%s\n", orNone(st.Result))
	if sf := st.SourceFailing; sf != nil {
		fmt.Fprintf(tw, "Source failing:\tsince %s (%s): %s\n", sf.Since, sf.Reason, printable(sf.Message))
	}
	if st.Suspended != nil {
		fmt.Fprintf(tw, "Suspended:\t%s\n", printable(SuspensionText(st.Suspended)))
	}
	if lf := st.LastFailure; lf != nil && lf.Stage != "" {
		fmt.Fprintf(tw, "Stopped at:\t%s\n", stoppedAt(lf))
	}
	if st.LastError != "" {
		lines := strings.Split(strings.TrimRight(st.LastError, "\n"), "\n")
		for i := range lines {
			lines[i] = printable(lines[i])
		}
		fmt.Fprintf(tw, "Error:\t%s\n", strings.Join(lines, "\n\t"))
	}
	fmt.Fprintf(tw, "Members:\t%d\n", len(st.Members))
	if err := tw.Flush(); err != nil {
		return err
	}
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, m := range st.Members {
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", m.Ref, m.Status, m.Message)
	}
	if st.SecretsSkipped {
		fmt.Fprintln(tw, "  (Secret members are not listed: status never reads Secrets)")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	var b strings.Builder
	approvalsText(&b, "", st.Approvals, st.Pending, true)
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	return lastFailureText(w, st.LastFailure)
}

func orNone(s string) string {
	if s == "" {
		return "(none recorded)"
	}
	return s
}

// lastFailureText writes why the last run's health wait failed, each
// workload with its diagnosis as apply printed it:
//
//	Last failure:
//	  deployment.apps/web in namespace shop: CrashLoopBackOff
//	    at deploy/web.yaml:1:1
//	    container web: CrashLoopBackOff: back-off 10s restarting failed container
//	    ...
func lastFailureText(w io.Writer, lf *apply.LastFailure) error {
	if lf == nil || len(lf.Workloads) == 0 && !lf.Truncated {
		return nil
	}
	var b strings.Builder
	b.WriteString("Last failure:\n")
	for _, f := range lf.Workloads {
		fmt.Fprintf(&b, "  %s", printable(f.Workload))
		if f.Namespace != "" {
			fmt.Fprintf(&b, " in namespace %s", printable(f.Namespace))
		}
		fmt.Fprintf(&b, ": %s\n", printable(f.Reason))
		var d strings.Builder
		diagnosisText(&d, &f.Diagnosis)
		for _, l := range strings.SplitAfter(d.String(), "\n") {
			if l != "" {
				b.WriteString("  " + l)
			}
		}
	}
	if lf.Truncated {
		b.WriteString("  (truncated: older log lines, events or workloads were left out of the record)\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// stoppedAt says where the recorded ordered run stopped (stoppedAtText).
func stoppedAt(lf *apply.LastFailure) string { return stoppedAtText(lf.Stage, lf.SyncFail) }

// stoppedAtText says where an ordered run stopped (docs/ordering.md) and
// how its SyncFail hooks went:
//
//	stage wave 1 (the stages after it did not run; the SyncFail hooks, if any, succeeded)
//	stage wave 1 (the stages after it did not run; the SyncFail hooks failed)
func stoppedAtText(stage, syncFail string) string {
	s := "stage " + printable(stage) + " (the stages after it did not run"
	switch syncFail {
	case apply.SyncFailFailed:
		s += "; the SyncFail hooks failed"
	case apply.SyncFailSucceeded:
		s += "; the SyncFail hooks, if any, succeeded"
	}
	return s + ")"
}
