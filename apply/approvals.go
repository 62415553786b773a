package apply

import "github.com/kubeplan/kubeplan/internal/guard"

// ApprovalRecord is one approval, or one override of a change window,
// recorded on the ApplySet parent by the run that used it.
type ApprovalRecord struct {
	guard.Approval
	// Window is true for an override of the change windows
	// (--outside-window); Rule is then empty and Reason the override's.
	Window bool `json:"window,omitempty"`
	// Suspend is set for a suspension's history (suspend.go): suspended,
	// resumed, or ignored (apply --ignore-suspend); Rule is then empty.
	Suspend string `json:"suspend,omitempty"`
	// Objects are the objects the approved verdicts were about.
	Objects []string `json:"objects,omitempty"`
	// Revision is the source revision the run applied.
	Revision string `json:"revision,omitempty"`
}
