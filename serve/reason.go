package serve

import (
	"errors"

	kphealth "github.com/kubeplan/kubeplan/health"
)

// Failure reasons of the metrics' reason label beyond the kubelet's and
// controllers' own: a wait that timed out without a known cause, a failed
// wait whose cause is not in failureReasons, and a run that failed
// before or outside its health wait (lint, plan, a write, the source).
const (
	reasonTimeout = "Timeout"
	reasonOther   = "other"
	reasonError   = "error"
)

// failureReasons are the diagnosis reasons the reason label takes as they
// are: a fixed set, so that the label's values stay bounded whatever the
// cluster says.
var failureReasons = map[string]string{
	"CrashLoopBackOff":           "CrashLoopBackOff",
	"ImagePullBackOff":           "ImagePullBackOff",
	"ErrImagePull":               "ImagePullBackOff",
	"InvalidImageName":           "InvalidImageName",
	"ErrImageNeverPull":          "ImagePullBackOff",
	"CreateContainerConfigError": "CreateContainerConfigError",
	"CreateContainerError":       "CreateContainerError",
	"OOMKilled":                  "OOMKilled",
	"InitContainerFailed":        "InitContainerFailed",
	"Error":                      "ContainerFailed",
	"PodFailed":                  "PodFailed",
	"FailedScheduling":           "FailedScheduling",
	"BackoffLimitExceeded":       "BackoffLimitExceeded",
	"DeadlineExceeded":           "DeadlineExceeded",
	"ProgressDeadlineExceeded":   "ProgressDeadlineExceeded",
}

// MetricReasons are every value failureReason returns, the reason
// label's values (docs/serve.md).
func MetricReasons() []string {
	seen := map[string]bool{}
	var out []string
	for _, v := range failureReasons {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return append(out, reasonTimeout, reasonOther, reasonError, metricReasons[ReasonApprovalPending], metricReasons[ReasonDenied])
}

// failureReason is a failed run's reason for the metrics: the main reason
// of the first diagnosed workload when it is a known one, Timeout for a
// wait that timed out without one, other for another failed wait, error
// for a run that failed outside its health wait; "" when err is nil.
func failureReason(err error) string {
	if err == nil {
		return ""
	}
	if g := guardReason(err); g != "" {
		return metricReasons[g]
	}
	var ue *kphealth.UnhealthyError
	if !errors.As(err, &ue) {
		return reasonError
	}
	for _, r := range kphealth.Diagnosed(err) {
		if reason, ok := failureReasons[r.Diagnosis.Reason()]; ok {
			return reason
		}
	}
	if ue.Timeout {
		return reasonTimeout
	}
	return reasonOther
}

// healthFailed reports whether err is a failed health wait (the run
// applied, its workloads did not become healthy).
func healthFailed(err error) bool {
	var ue *kphealth.UnhealthyError
	return errors.As(err, &ue)
}
