package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/kubeplan/kubeplan/apply"
)

// HealthProgress writes one progress line to w each time apply's health
// wait reports the objects still waited for (when they change, or every few
// seconds): the view of apply.Options.Progress, on stderr.
func HealthProgress(w io.Writer) func([]apply.HealthResult) {
	if w == nil {
		return nil
	}
	return func(pending []apply.HealthResult) {
		if len(pending) == 0 {
			return
		}
		var parts []string
		for i, r := range pending {
			if i == 3 {
				parts = append(parts, fmt.Sprintf("and %d more", len(pending)-3))
				break
			}
			msg := r.Ref.String()
			if r.Message != "" {
				msg += " (" + r.Message + ")"
			}
			parts = append(parts, msg)
		}
		fmt.Fprintf(w, "waiting for %d object(s) to be healthy: %s\n", len(pending), strings.Join(parts, ", "))
	}
}
