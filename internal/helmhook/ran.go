package helmhook

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
)

// RanAnnotation on the ApplySet parent records the hooks with the delete
// policy hook-succeeded that ran and were deleted, as a JSON object from
// Key to Digest. A later plan does not run such a hook again while its
// content is the same.
const RanAnnotation = "kubeplan.dev/hooks-ran"

// Key names a hook in RanAnnotation: "ns/job.batch/migrate", from the
// hook's namespace and its reference ("job.batch/migrate").
func Key(namespace, ref string) string { return namespace + "/" + ref }

// Digest is a short digest of the hook as it is applied: a hook runs
// again when it changes.
func Digest(obj map[string]any) string {
	data, err := json.Marshal(obj) // map keys are sorted: stable
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:12])
}

// ParseRan reads RanAnnotation; a value kubeplan did not write reads as
// empty (the hooks then run again, as Helm runs them).
func ParseRan(v string) map[string]string {
	m := map[string]string{}
	if v != "" {
		_ = json.Unmarshal([]byte(v), &m)
	}
	return m
}
