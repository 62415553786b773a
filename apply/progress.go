package apply

import (
	"fmt"
	"io"
	"strings"
)

// progressPrinter writes one progress line to w whenever the objects still
// waited for change (or every few seconds), for long waits on stderr.
func progressPrinter(w io.Writer) func([]HealthResult) {
	if w == nil {
		return nil
	}
	return func(pending []HealthResult) {
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
