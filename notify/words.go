package notify

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Formats are the values of --notify-format: the webhook payloads
// Words.Payload writes.
var Formats = []string{"json", "slack", "teams"}

// Words are what notifications say: notify decides when to send and
// delivers; every text for people comes from Words (kubeplan's are
// render.NotifyWords).
type Words interface {
	// Summary is an event's one line for people (Event.Summary).
	Summary(e Event) string
	// Payload is a webhook's request body for e in format, one of
	// Formats ("" is "json").
	Payload(format string, e Event) ([]byte, error)
	// StatusDescription is the commit status's description of run r;
	// errText is its error, scrubbed ("" when it succeeded).
	StatusDescription(r Run, errText string) string
	// DriftTitle is the title of project's drift issue: an open issue
	// with this title and DriftLabel is the project's.
	DriftTitle(project string) string
	// DriftBody is the drift issue's text for run r, failing since
	// since; errText is its error, scrubbed.
	DriftBody(r Run, errText string, since time.Time) string
	// DriftClosed is the comment that closes the drift issue when run r
	// succeeded.
	DriftClosed(r Run) string
	// YieldTitle is the title of project's issue about fields serve
	// repairs every run (Run.YieldHints); YieldBody its text for run r,
	// hints scrubbed.
	YieldTitle(project string) string
	YieldBody(r Run, hints []string) string
}

// checkFormat refuses a --notify-format Words has no payload for.
func checkFormat(name string) error {
	if name == "" || slices.Contains(Formats, name) {
		return nil
	}
	return fmt.Errorf("--notify-format %q: want one of %s", name, strings.Join(Formats, ", "))
}
