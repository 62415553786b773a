package render

import (
	"fmt"
	"strings"

	"github.com/kubeplan/kubeplan/notify"
)

// MaxEventNote is the API server's limit on an Event's note, in bytes.
const MaxEventNote = 1024

// EventRun is what one run of a kubeplan serve project says in the
// Kubernetes Event recorded on its ApplySet parent.
type EventRun struct {
	Revision, Subject string // the commit run, and its subject line
	// Err is why the run failed, nil on success; Findings are lint's
	// errors when lint stopped it ("file:line:col: message").
	Err                        error
	Findings                   []string
	Applied, Pruned, Unchanged int
}

// EventNote is the Event's note, at most MaxEventNote bytes (cut with
// "..."):
//
//	revision 0123456 (bump): 2 applied, 0 pruned, 48 unchanged
//	revision fedcba9: lint found 1 error(s); app/cm.yaml:6:3: invalid YAML
//	revision 0123456: deployment.apps/web: CrashLoopBackOff: container main exit code 1 (2 pods)
//
// A failed health wait is said with FailureLine per diagnosed workload,
// rather than the error's text.
func EventNote(r EventRun) string {
	var b strings.Builder
	fmt.Fprintf(&b, "revision %s", abbrev(r.Revision))
	if r.Subject != "" {
		fmt.Fprintf(&b, " (%s)", r.Subject)
	}
	if lines := FailureLines(r.Err); len(lines) > 0 {
		// A failed health wait says why, one workload after another.
		fmt.Fprintf(&b, ": %s", strings.Join(lines, "; "))
	} else if r.Err != nil {
		fmt.Fprintf(&b, ": %v", r.Err)
		for _, f := range r.Findings {
			b.WriteString("; " + f)
		}
	} else {
		fmt.Fprintf(&b, ": %d applied, %d pruned, %d unchanged", r.Applied, r.Pruned, r.Unchanged)
	}
	// Anyone who can list Events reads it: credentials an error or a
	// termination message quotes are scrubbed, as in notifications.
	s := notify.Scrub(b.String())
	if len(s) > MaxEventNote {
		s = cutUTF8(s, MaxEventNote-3) + "..."
	}
	return s
}
