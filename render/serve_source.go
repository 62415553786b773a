package render

import (
	"fmt"
	"io"
	"time"

	"github.com/kubeplan/kubeplan/notify"
)

// SourceEventNote is the note of the Event kubeplan serve records on each
// project's ApplySet parent when its git source begins failing (err set)
// or is fetched again (err nil); rev is the last revision fetched:
//
//	git source failing since 2026-12-02T10:00:00Z (not-found): ...: repository not found; nothing is applied or pruned until it is fetched again (last revision 0123456)
//	git source fetched again (it failed since 2026-12-02T10:00:00Z), at revision 0123456
func SourceEventNote(rev string, since time.Time, reason string, err error) string {
	at := since.UTC().Format(time.RFC3339)
	var s string
	if err != nil {
		s = fmt.Sprintf("git source failing since %s (%s): %v; nothing is applied or pruned until it is fetched again", at, reason, err)
		if rev != "" {
			s += fmt.Sprintf(" (last revision %s)", abbrev(rev))
		}
	} else {
		s = fmt.Sprintf("git source fetched again (it failed since %s)", at)
		if rev != "" {
			s += fmt.Sprintf(", at revision %s", abbrev(rev))
		}
	}
	s = notify.Scrub(s)
	if len(s) > MaxEventNote {
		s = cutUTF8(s, MaxEventNote-3) + "..."
	}
	return s
}

// ServeWebhooks is the line kubeplan serve prints once its push webhooks
// listen on addr.
func ServeWebhooks(w io.Writer, addr fmt.Stringer) {
	fmt.Fprintf(w, "kubeplan serve: push webhooks on %s (/hooks/github, /hooks/gitlab, /hooks/generic)\n", addr)
}
