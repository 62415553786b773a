package admissiondiff

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kubeplan/kubeplan/lint/admission"
	"github.com/kubeplan/kubeplan/manifest"
)

// Outcome is what one create got: denied (with the message) or admitted,
// and the warnings of ValidatingAdmissionPolicies.
type Outcome struct {
	Denied   bool
	Message  string
	Warnings []string
}

// WarningPrefix starts every warning a ValidatingAdmissionPolicy sends.
const WarningPrefix = "Validation failed for ValidatingAdmissionPolicy "

// Offline is the outcome lint/admission predicts for obj: the API
// server's messages for every denying verdict (it reports one of them)
// and its warnings.
func Offline(set *admission.Set, obj *manifest.Object) (denials []string, o Outcome) {
	for _, v := range set.Check(obj) {
		if v.Denies() {
			denials = append(denials, v.Forbidden(obj.Name))
		}
		if v.Warns() {
			o.Warnings = append(o.Warnings, v.WarningText())
		}
	}
	o.Denied = len(denials) > 0
	if o.Denied {
		o.Message = denials[0]
	}
	slices.Sort(o.Warnings)
	return denials, o
}

// Compare says how the server's outcome differs from the offline one, ""
// when they agree: both deny or both admit, the server's message is one
// of the offline denials, and the policy warnings are the same.
func Compare(server Outcome, denials []string, offline Outcome) string {
	var warns []string
	for _, w := range server.Warnings {
		if strings.HasPrefix(w, WarningPrefix) {
			warns = append(warns, w)
		}
	}
	slices.Sort(warns)
	var diffs []string
	switch {
	case server.Denied != offline.Denied:
		diffs = append(diffs, fmt.Sprintf("server denied=%v (%s), offline denied=%v (%s)", server.Denied, server.Message, offline.Denied, strings.Join(denials, " | ")))
	case server.Denied && !slices.Contains(denials, server.Message):
		diffs = append(diffs, fmt.Sprintf("server message %q, offline %q", server.Message, denials))
	}
	if !slices.Equal(warns, offline.Warnings) {
		diffs = append(diffs, fmt.Sprintf("server warnings %q, offline %q", warns, offline.Warnings))
	}
	return strings.Join(diffs, "; ")
}
