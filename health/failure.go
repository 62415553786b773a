package health

import "errors"

// Reason is the diagnosis's main reason: the reason of its first cause
// ("CrashLoopBackOff", "OOMKilled", "FailedScheduling"), or "" when it
// found no cause in the pods.
func (d *Diagnosis) Reason() string {
	if d == nil || len(d.Causes) == 0 {
		return ""
	}
	return d.Causes[0].Reason
}

// Diagnosed returns the results of a failed wait (err is, or wraps, an
// *UnhealthyError: an apply's or a wait's error) that carry a diagnosis,
// in the wait's order; nil for any other error.
func Diagnosed(err error) []Result {
	var ue *UnhealthyError
	if !errors.As(err, &ue) {
		return nil
	}
	var out []Result
	for _, r := range ue.Results {
		if r.Diagnosis != nil {
			out = append(out, r)
		}
	}
	return out
}

// FailureReason is the reason a failed result gives: its diagnosis's
// Reason when it has one, otherwise its status ("Failed", "InProgress"
// for a timeout).
func FailureReason(r Result) string {
	if reason := r.Diagnosis.Reason(); reason != "" {
		return reason
	}
	return r.Status
}
