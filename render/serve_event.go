package render

import (
	"fmt"
	"strings"

	"github.com/kubeplan/kubeplan/apply"
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
//	revision 0123456: stopped at stage wave 1: job.batch/migrate: BackoffLimitExceeded: ...
//	revision 0123456: stopped at stage PreSync hooks: applying job.batch/migrate: forbidden
//
// A failed health wait is said with FailureLine per diagnosed workload,
// rather than the error's text. A failed ordered run (apply.StageError)
// first says the stage it stopped at, and when the SyncFail hooks failed
// too.
func EventNote(r EventRun) string {
	var b strings.Builder
	fmt.Fprintf(&b, "revision %s", abbrev(r.Revision))
	if r.Subject != "" {
		fmt.Fprintf(&b, " (%s)", r.Subject)
	}
	stage, syncFail := apply.StoppedAt(r.Err)
	if lines := FailureLines(r.Err); len(lines) > 0 {
		if stage != "" {
			fmt.Fprintf(&b, ": stopped at stage %s", stage)
			if syncFail == apply.SyncFailFailed {
				b.WriteString(" (the SyncFail hooks failed too)")
			}
		}
		// A failed health wait says why, one workload after another.
		fmt.Fprintf(&b, ": %s", strings.Join(lines, "; "))
	} else if r.Err != nil {
		if stage != "" {
			b.WriteString(": stopped at " + apply.StageText(r.Err))
		} else {
			fmt.Fprintf(&b, ": %v", r.Err)
		}
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
