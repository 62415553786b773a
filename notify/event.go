package notify

import "time"

// PayloadVersion is the version of Event, the generic webhook's payload
// (docs/notifications.md). Fields are only added within a version.
// Version 1 gained Failures and Stage (failing only).
const PayloadVersion = 1

// Kinds of notification.
const (
	KindFailing   = "failing"
	KindRecovered = "recovered"
	// KindYieldSuggested: serve took a field back in several runs in a
	// row, set each time by the same other manager (Run.YieldHints).
	KindYieldSuggested = "yield-suggested"
)

// Event is one notification, the generic webhook's JSON payload.
type Event struct {
	Version   int    `json:"version"`
	Kind      string `json:"kind"` // failing or recovered
	Project   string `json:"project"`
	Revision  string `json:"revision,omitempty"`
	Cluster   string `json:"cluster,omitempty"`
	Namespace string `json:"namespace,omitempty"`
	ApplySet  string `json:"applyset,omitempty"`
	Scheduled bool   `json:"scheduled"`
	// Error is the run's error, scrubbed of credentials (failing only).
	Error string `json:"error,omitempty"`
	// Failures are the workloads the run's health wait found failed, with
	// their reason (failing only; at most 10).
	Failures []Failure `json:"failures,omitempty"`
	// Stage is the stage a failed ordered run stopped at: "wave 1"
	// (failing only; absent for a run without stages).
	Stage string `json:"stage,omitempty"`
	// FailingSince is when the failure began: the end of its first failed run.
	FailingSince time.Time `json:"failingSince,omitzero"`
	Applied      int       `json:"applied"`
	Pruned       int       `json:"pruned"`
	Unchanged    int       `json:"unchanged"`
	Drift        bool      `json:"drift"`
	Start        time.Time `json:"start,omitzero"`
	End          time.Time `json:"end,omitzero"`
	// Hints say which yield: rule would leave a field to the controller
	// that keeps setting it (yield-suggested only).
	Hints []string `json:"hints,omitempty"`
	// Summary is one line for people (Words.Summary).
	Summary string `json:"summary"`
}

// event makes the notification of kind for run r.
func (n *Notifier) event(kind string, r Run, since time.Time) Event {
	e := Event{
		Version: PayloadVersion, Kind: kind, Project: r.Project, Revision: r.Revision, Cluster: r.Cluster,
		Namespace: r.Namespace, ApplySet: r.ApplySet, Scheduled: r.Scheduled, FailingSince: since.UTC(),
		Applied: r.Applied, Pruned: r.Pruned, Unchanged: r.Unchanged, Drift: r.Drift,
		Start: r.Start.UTC(), End: r.End.UTC(),
	}
	if kind == KindFailing {
		e.Error = n.errorText(r.Err)
		e.Failures = r.Failures
		e.Stage = r.Stage
	}
	if kind == KindYieldSuggested {
		e.Hints = r.YieldHints
	}
	e.Summary = n.cfg.Words.Summary(e)
	return e
}
