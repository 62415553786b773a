package notify

import "time"

// What the tests of package notify_test reach inside a Notifier.

// SetBackoff makes n retry after d instead of 500ms.
func SetBackoff(n *Notifier, d time.Duration) { n.backoff = d }

// Projects is n's per-project state.
func Projects(n *Notifier) map[string]ProjectState { return n.projects }

// Attempts bounds the tries of one request.
const Attempts = attempts
