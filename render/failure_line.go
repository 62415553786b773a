package render

import (
	"fmt"
	"strings"

	"github.com/kubeplan/kubeplan/health"
)

// FailureLine is one line for people about a failed workload, for the
// places with room for a line and not a diagnosis (serve's Event note, a
// notification's summary, a commit status):
//
//	deployment.apps/web: CrashLoopBackOff: container main exit code 1 (2 pods)
//	deployment.apps/api: ImagePullBackOff: container api: Back-off pulling image "api:nope"
//	deployment.apps/db: InProgress: 0/1 available
//
// Its texts come from the diagnosis (Secret values masked by the wait),
// control characters escaped, the message clipped to 160 characters.
func FailureLine(r health.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", printable(r.Ref.String()), printable(health.FailureReason(r)))
	if r.Diagnosis == nil || len(r.Diagnosis.Causes) == 0 {
		if r.Message != "" {
			fmt.Fprintf(&b, ": %s", truncate(printable(r.Message), 160))
		}
		return b.String()
	}
	c := r.Diagnosis.Causes[0]
	if c.Container != "" {
		kind := "container"
		if c.Init {
			kind = "init container"
		}
		fmt.Fprintf(&b, ": %s %s", kind, printable(c.Container))
	}
	switch {
	case c.ExitCode != 0:
		fmt.Fprintf(&b, " exit code %d", c.ExitCode)
		if c.TerminationMessage != "" {
			fmt.Fprintf(&b, ": %s", truncate(printable(firstLine(c.TerminationMessage)), 160))
		}
	case c.Message != "":
		fmt.Fprintf(&b, ": %s", truncate(printable(firstLine(c.Message)), 160))
	}
	if c.Pods > 1 {
		fmt.Fprintf(&b, " (%d pods)", c.Pods)
	}
	if more := len(r.Diagnosis.Causes) - 1; more > 0 {
		fmt.Fprintf(&b, " and %s", plural(more, "other cause"))
	}
	return b.String()
}

// FailureLines are the FailureLine of every diagnosed workload of err, a
// failed apply's or wait's error (health.Diagnosed); nil for other errors.
func FailureLines(err error) []string {
	var out []string
	for _, r := range health.Diagnosed(err) {
		out = append(out, FailureLine(r))
	}
	return out
}

func firstLine(s string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return first
}
