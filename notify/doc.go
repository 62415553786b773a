// Package notify tells people when a project of kubeplan serve starts
// failing and when it recovers, and never on every run: serve calls
// Notifier.Observe after each run of each project, and Observe decides
// whether that run changed anything worth saying.
//
// Per project it keeps a ProjectState. A run that fails while the project
// was last reported healthy (or never reported: the first run of a new
// project) sends one "failing" notification; further failures send nothing,
// whatever their error (the project is still failing, and one message per
// incident is the point); the first success after that sends one
// "recovered". A notification that could not be delivered is tried again
// on the next run, since the state only records what was delivered. The
// state survives a restart of serve when Config.State persists it
// (ConfigMapState keeps it in a ConfigMap's annotation); without one it
// lives in memory, and a
// restart in the middle of a failure notifies that failure once more.
//
// Where notifications go:
//
//   - Config.Webhook: one POST per notification, as Config.Format says:
//     "json" (the versioned payload of docs/notifications.md), "slack"
//     (an incoming webhook's {"text", "blocks"}) or "teams" (a Teams
//     workflow's message holding an Adaptive Card).
//   - Config.GitHubRepository with GitHubToken: a commit status
//     (context kubeplan/<project>, success or failure) on the revision run,
//     once per revision and result; and, when a scheduled run (drift
//     repair, not a new revision) fails, an issue labelled kubeplan-drift,
//     found again rather than opened twice, and closed with a comment when
//     the project recovers. The requests are internal/ghcomment's.
//
// notify decides when to say something and delivers it; what is said
// (the summary line, the payloads, the commit status, the drift issue) is
// Config.Words, render.NotifyWords in kubeplan: notify never words a
// message for people itself, and never imports render.
//
// A failing run may carry Failures: the workloads its health wait found
// failed, with their reason, source and one line (failure.go); at most 10,
// each text capped, never logs. They are scrubbed as the error is.
//
// Error texts are scrubbed before they leave the process (scrub.go):
// bearer and basic credentials, Authorization headers, passwords in URLs,
// token=, password= and secret= values, GitHub tokens, JWTs, and the
// notifier's own token and webhook URL become "***".
//
// Each request is retried on 5xx, 429 and network errors with a bounded
// backoff, and one Observe call is bounded by Config.Timeout (default 20s),
// so notifying never holds reconciling for long; what failed is returned
// for serve to log.
package notify
