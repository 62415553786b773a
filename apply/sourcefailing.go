package apply

import "encoding/json"

// AnnotationSourceFailing is what kubeplan serve records on each
// project's ApplySet parent while its git source cannot be fetched or
// read (nothing is applied or pruned meanwhile), and removes once it
// can again: SourceFailing as JSON.
const AnnotationSourceFailing = "kubeplan.dev/source-failing"

// SourceFailing is since when, and why, serve's git source fails.
type SourceFailing struct {
	Since string `json:"since"` // RFC 3339, UTC
	// Reason is one of auth, not-found, network, timeout, config, other.
	Reason string `json:"reason"`
	// Message is the fetch's error, credentials redacted.
	Message string `json:"message,omitempty"`
}

// ReadSourceFailing reads the annotation; nil when absent or unreadable.
func ReadSourceFailing(s string) *SourceFailing {
	if s == "" {
		return nil
	}
	var f SourceFailing
	if json.Unmarshal([]byte(s), &f) != nil || f.Since == "" {
		return nil
	}
	return &f
}
