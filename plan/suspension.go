package plan

import (
	"encoding/json"
	"time"
)

// AnnotationSuspended marks an ApplySet parent suspended (kubeplan
// suspend): JSON of a Suspension. No apply writes to a suspended set.
const AnnotationSuspended = "kubeplan.dev/suspended"

// Suspension is who suspended a set, why and when.
type Suspension struct {
	By     string `json:"by,omitempty"`
	Reason string `json:"reason"`
	At     string `json:"at,omitempty"` // RFC 3339
}

// ParseSuspension reads the annotation's value: nil when empty. A value
// that is not a Suspension's JSON still suspends the set (someone wrote
// it by hand), with the value as its reason.
func ParseSuspension(v string) *Suspension {
	if v == "" {
		return nil
	}
	var s Suspension
	if err := json.Unmarshal([]byte(v), &s); err != nil || s.Reason == "" && s.By == "" {
		return &Suspension{Reason: v}
	}
	return &s
}

// Since is when the suspension began, to the minute ("2026-12-02T10:00Z"),
// or the recorded text when it is not a time.
func (s *Suspension) Since() string {
	t, err := time.Parse(time.RFC3339, s.At)
	if err != nil {
		return s.At
	}
	return t.UTC().Format("2006-01-02T15:04Z07:00")
}
