package apply

import (
	"encoding/json"
	"errors"
	"unicode/utf8"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeplan/kubeplan/health"
	"github.com/kubeplan/kubeplan/internal/sops"
)

// AnnotationLastFailure records on the ApplySet parent why the last run
// failed: the stage it stopped at and its health wait's diagnosis, as
// LastFailure in compact JSON. A run that succeeds removes it; a run that
// fails before its first stage and its wait (lint, dry-run) removes it
// too, so that it always belongs to the run Result and LastError describe.
const AnnotationLastFailure = "kubeplan.dev/last-failure"

// LastFailureVersion is the version of the LastFailure document; fields
// are only added within a version (docs/output.md, status).
const LastFailureVersion = 1

// maxLastFailure caps the annotation: the parent's annotations share the
// API server's 256 KiB limit with the set's own.
const maxLastFailure = 16 << 10

// LastFailure is why the last run failed: the stage an ordered run
// stopped at (docs/ordering.md) and the diagnosis of each workload its
// health wait found failed, as `kubeplan status` shows it. A record has
// a stage, workloads, or both.
type LastFailure struct {
	Version int `json:"version"`
	// Stage is the stage the run stopped at ("wave 1", "PreSync hooks"),
	// "" for a run without stages. Added within version 1: a record
	// without it reads as before.
	Stage string `json:"stage,omitempty"`
	// SyncFail is how the SyncFail hooks went after the stage failed:
	// SyncFailSucceeded (they succeeded, or the project has none) or
	// SyncFailFailed; "" when Stage is.
	SyncFail  string           `json:"syncFail,omitempty"`
	Workloads []FailedWorkload `json:"workloads"`
	// Truncated is true when log lines, events, messages or whole
	// workloads were left out to keep the record within 16 KiB.
	Truncated bool `json:"truncated,omitempty"`
}

// FailedWorkload is one workload the wait found failed or not healthy in
// time, with its diagnosis (Secret values already masked by the wait).
type FailedWorkload struct {
	// Workload is the object as kubectl names it: "deployment.apps/web".
	Workload  string `json:"workload"`
	Namespace string `json:"namespace,omitempty"`
	// Status is the wait's status of it (Failed, InProgress for a
	// timeout); Reason its main reason (health.FailureReason).
	Status string `json:"status"`
	Reason string `json:"reason"`
	health.Diagnosis
}

// SyncFail outcomes of a LastFailure: after a stage failed, its SyncFail
// hooks succeeded (or there were none to run), or one of them failed.
const (
	SyncFailSucceeded = "succeeded"
	SyncFailFailed    = "failed"
)

// maxStageName caps the stage's name in the record (names are short:
// "wave 12", "wave 0, step 2").
const maxStageName = 256

// NewLastFailure makes the record of a run that failed with err: nil when
// err is neither a stage's failure (StageError) nor a failed health wait
// with a diagnosis.
func NewLastFailure(err error) *LastFailure {
	results := health.Diagnosed(err)
	stage, syncFail := StoppedAt(err)
	if len(results) == 0 && stage == "" {
		return nil
	}
	lf := &LastFailure{Version: LastFailureVersion, Stage: clip(sops.Scrub(stage), maxStageName), SyncFail: syncFail,
		Workloads: []FailedWorkload{}}
	for _, r := range results {
		lf.Workloads = append(lf.Workloads, FailedWorkload{Workload: r.Ref.String(), Namespace: r.Ref.Namespace,
			Status: r.Status, Reason: health.FailureReason(r), Diagnosis: copyDiagnosis(r.Diagnosis)})
	}
	return lf
}

// copyDiagnosis copies d deep enough for the record to shorten it without
// touching the run's own results. The texts were masked by the wait; a
// value decrypted from SOPS that one quotes is hidden as in last-error.
func copyDiagnosis(d *health.Diagnosis) health.Diagnosis {
	out := health.Diagnosis{Source: d.Source}
	for _, c := range d.Causes {
		c.Message, c.TerminationMessage, c.LogNote = sops.Scrub(c.Message), sops.Scrub(c.TerminationMessage), sops.Scrub(c.LogNote)
		c.Log = scrubAll(c.Log)
		out.Causes = append(out.Causes, c)
	}
	for _, e := range d.Events {
		e.Note = sops.Scrub(e.Note)
		out.Events = append(out.Events, e)
	}
	out.Missing = scrubAll(d.Missing)
	return out
}

func scrubAll(lines []string) []string {
	var out []string
	for _, l := range lines {
		out = append(out, sops.Scrub(l))
	}
	return out
}

// lastFailureRecord is the annotation's value for err: compact JSON within
// maxLastFailure, "" when there is nothing to record.
func lastFailureRecord(err error) string {
	lf := NewLastFailure(err)
	if lf == nil {
		return ""
	}
	return lf.encode(maxLastFailure)
}

// encode writes lf as compact JSON of at most limit bytes. What does not
// fit goes in this order: the older log lines, then the older events,
// then long messages, then the last workloads; Truncated says so.
func (lf *LastFailure) encode(limit int) string {
	fits := func() (string, bool) {
		data, err := json.Marshal(lf)
		if err != nil {
			return "", false
		}
		return string(data), len(data) <= limit
	}
	if s, ok := fits(); ok {
		return s
	}
	lf.Truncated = true
	for _, keep := range []int{10, 5, 2, 0} {
		lf.eachCause(func(c *health.Cause) {
			if len(c.Log) > keep {
				c.Log = c.Log[len(c.Log)-keep:]
			}
		})
		if s, ok := fits(); ok {
			return s
		}
	}
	for _, keep := range []int{5, 2, 0} {
		for i := range lf.Workloads {
			if ev := lf.Workloads[i].Events; len(ev) > keep {
				lf.Workloads[i].Events = ev[len(ev)-keep:]
			}
		}
		if s, ok := fits(); ok {
			return s
		}
	}
	lf.eachCause(func(c *health.Cause) {
		c.Message, c.TerminationMessage = clip(c.Message, 256), clip(c.TerminationMessage, 256)
	})
	for i := range lf.Workloads {
		for j, m := range lf.Workloads[i].Missing {
			lf.Workloads[i].Missing[j] = clip(m, 256)
		}
	}
	for {
		s, ok := fits()
		if ok || len(lf.Workloads) <= 1 {
			if !ok && len(lf.Workloads) == 1 {
				// One workload's causes alone do not fit: keep the first.
				lf.Workloads[0].Causes = lf.Workloads[0].Causes[:min(1, len(lf.Workloads[0].Causes))]
				lf.Workloads[0].Missing = nil
				s, _ = fits()
			}
			return s
		}
		lf.Workloads = lf.Workloads[:len(lf.Workloads)-1]
	}
}

func (lf *LastFailure) eachCause(f func(*health.Cause)) {
	for i := range lf.Workloads {
		for j := range lf.Workloads[i].Causes {
			f(&lf.Workloads[i].Causes[j])
		}
	}
}

// clip shortens s to at most n bytes, on a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "..."
}

// ReadLastFailure decodes the annotation's value: nil when it is empty
// or not a LastFailure (a record this version cannot read is not shown).
// A record written before stages existed (no "stage") reads as it did.
func ReadLastFailure(s string) *LastFailure {
	if s == "" {
		return nil
	}
	var lf LastFailure
	if err := json.Unmarshal([]byte(s), &lf); err != nil || lf.Version != LastFailureVersion || len(lf.Workloads) == 0 && lf.Stage == "" {
		return nil
	}
	return &lf
}

// StoppedAt is the stage err stopped an ordered run at and how its
// SyncFail hooks went (SyncFailSucceeded, SyncFailFailed): "", "" when
// err is not a stage's failure (FailedStage).
func StoppedAt(err error) (stage, syncFail string) {
	var se *StageError
	if !errors.As(err, &se) {
		return "", ""
	}
	if se.OnFail != nil {
		return se.Stage, SyncFailFailed
	}
	return se.Stage, SyncFailSucceeded
}

// ownsAnnotation reports whether manager's server-side apply alone holds
// the annotation key in managed: only then does an apply that leaves the
// key out remove it (a key another manager also set stays).
func ownsAnnotation(managed []metav1.ManagedFieldsEntry, manager, key string) bool {
	owned := false
	for _, m := range managed {
		if m.FieldsV1 == nil {
			continue
		}
		var fields struct {
			Metadata struct {
				Annotations map[string]json.RawMessage `json:"f:annotations"`
			} `json:"f:metadata"`
		}
		if json.Unmarshal(m.FieldsV1.Raw, &fields) != nil {
			continue
		}
		if _, ok := fields.Metadata.Annotations["f:"+key]; !ok {
			continue
		}
		if m.Manager != manager || m.Operation != metav1.ManagedFieldsOperationApply {
			return false
		}
		owned = true
	}
	return owned
}
