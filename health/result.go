package health

import (
	"sigs.k8s.io/cli-utils/pkg/kstatus/status"

	"github.com/kubeplan/kubeplan/internal/kube"
)

// Health statuses. All but Complete are kstatus's.
const (
	Current     = string(status.CurrentStatus)
	InProgress  = string(status.InProgressStatus)
	Failed      = string(status.FailedStatus)
	Terminating = string(status.TerminatingStatus)
	NotFound    = string(status.NotFoundStatus)
	Unknown     = string(status.UnknownStatus)
	// Complete is a Job whose Complete condition is True.
	Complete = "Complete"
)

// Result is the health of one object.
type Result struct {
	Ref kube.Ref `json:"ref"`
	// Status is the kstatus status (Current, InProgress, Failed,
	// Terminating, NotFound, Unknown), or Complete for a finished Job.
	Status string `json:"status"`
	// Message says why, e.g. "1/3 available: ImagePullBackOff".
	Message string `json:"message,omitempty"`
	// Diagnosis says why a workload failed or timed out (the wait's
	// WaitOptions.Diagnose); nil otherwise.
	Diagnosis *Diagnosis `json:"diagnosis,omitempty"`
}

// Healthy reports whether the object is done: Current, or Complete for a Job.
func (r Result) Healthy() bool {
	return r.Status == Current || r.Status == Complete
}
