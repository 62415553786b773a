package notify

import (
	"fmt"
	"strings"
	"time"
)

// PayloadVersion is the version of Event, the generic webhook's payload
// (docs/notifications.md). Fields are only added within a version.
const PayloadVersion = 1

// Kinds of notification.
const (
	KindFailing   = "failing"
	KindRecovered = "recovered"
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
	// FailingSince is when the failure began: the end of its first failed run.
	FailingSince time.Time `json:"failingSince,omitzero"`
	Applied      int       `json:"applied"`
	Pruned       int       `json:"pruned"`
	Unchanged    int       `json:"unchanged"`
	Drift        bool      `json:"drift"`
	Start        time.Time `json:"start,omitzero"`
	End          time.Time `json:"end,omitzero"`
	// Summary is one line for people.
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
	}
	e.Summary = e.summary()
	return e
}

func (e Event) summary() string {
	var b strings.Builder
	if e.Kind == KindFailing {
		fmt.Fprintf(&b, "kubeplan: project %s is failing", e.Project)
	} else {
		fmt.Fprintf(&b, "kubeplan: project %s recovered", e.Project)
	}
	if where := e.where(); where != "" {
		fmt.Fprintf(&b, " (%s)", where)
	}
	if e.Kind == KindFailing {
		if first, _, _ := strings.Cut(e.Error, "\n"); first != "" {
			fmt.Fprintf(&b, ": %s", truncate(first, 300))
		}
		return b.String()
	}
	if !e.FailingSince.IsZero() && !e.End.IsZero() && e.End.After(e.FailingSince) {
		fmt.Fprintf(&b, " after failing for %s", e.End.Sub(e.FailingSince).Round(time.Second))
	}
	fmt.Fprintf(&b, ": %d applied, %d pruned, %d unchanged", e.Applied, e.Pruned, e.Unchanged)
	return b.String()
}

// where names the revision, cluster and namespace, those that are known.
func (e Event) where() string {
	var parts []string
	if e.Revision != "" {
		parts = append(parts, "revision "+short(e.Revision))
	}
	if e.Cluster != "" {
		parts = append(parts, "cluster "+e.Cluster)
	}
	if e.Namespace != "" {
		parts = append(parts, "namespace "+e.Namespace)
	}
	return strings.Join(parts, ", ")
}

// short is a revision as git shows it abbreviated.
func short(rev string) string {
	if len(rev) > 7 {
		return rev[:7]
	}
	return rev
}

// facts are the name/value pairs the chat formats show.
func (e Event) facts() [][2]string {
	var out [][2]string
	add := func(name, value string) {
		if value != "" {
			out = append(out, [2]string{name, value})
		}
	}
	add("Project", e.Project)
	add("Revision", short(e.Revision))
	add("Cluster", e.Cluster)
	add("Namespace", e.Namespace)
	add("ApplySet", e.ApplySet)
	run := "new revision"
	if e.Scheduled {
		run = "drift repair (scheduled)"
	}
	add("Run", run)
	if e.Kind == KindRecovered {
		add("Result", fmt.Sprintf("%d applied, %d pruned, %d unchanged", e.Applied, e.Pruned, e.Unchanged))
	}
	if !e.FailingSince.IsZero() {
		add("Failing since", e.FailingSince.Format(time.RFC3339))
	}
	return out
}

func (e Event) title() string {
	if e.Kind == KindFailing {
		return "kubeplan: " + e.Project + " is failing"
	}
	return "kubeplan: " + e.Project + " recovered"
}
