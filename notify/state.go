package notify

import (
	"context"
	"fmt"
	"maps"
	"time"
)

// ProjectState is what the notifier remembers about one project. It is
// plain JSON, so a State can keep the map of them anywhere (a file, a
// ConfigMap annotation).
type ProjectState struct {
	// Failing: the last run failed; FailingSince is when the first run of
	// that failure ended.
	Failing      bool      `json:"failing,omitempty"`
	FailingSince time.Time `json:"failingSince,omitzero"`
	// Notified is "failing" when the webhook was last told the project
	// fails, "" when it was told nothing or that it recovered.
	Notified string `json:"notified,omitempty"`
	// Status is the last commit status set: "REVISION success|failure".
	Status string `json:"status,omitempty"`
	// DriftIssue is the number of the open drift issue, 0 for none.
	DriftIssue int `json:"driftIssue,omitempty"`
}

// State keeps the projects' states across restarts of serve. Load is
// called on the first Observe (and again on the next ones while it fails:
// until it succeeds, the state lives in memory and Save is not called, so
// a state that could not be read is never overwritten); Save after every
// Observe that changed a project's state, with all projects.
type State interface {
	Load(ctx context.Context) (map[string]ProjectState, error)
	Save(ctx context.Context, projects map[string]ProjectState) error
}

// state returns the state of project, loading the persisted states first
// if that has not been done yet.
func (n *Notifier) state(ctx context.Context, project string) (ProjectState, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	var err error
	if !n.loaded && n.cfg.State != nil {
		var saved map[string]ProjectState
		if saved, err = n.cfg.State.Load(ctx); err == nil {
			// Projects observed while the state could not be read keep what
			// this process saw, which is newer.
			for p, st := range saved {
				if _, seen := n.projects[p]; !seen {
					n.projects[p] = st
				}
			}
			n.loaded = true
		} else {
			err = fmt.Errorf("reading the notification state: %w", err)
		}
	}
	return n.projects[project], err
}

// save records project's state and persists all of them when a State is set and loaded.
func (n *Notifier) save(ctx context.Context, project string, st ProjectState) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.projects[project] = st
	if n.cfg.State == nil || !n.loaded {
		return nil
	}
	if err := n.cfg.State.Save(ctx, maps.Clone(n.projects)); err != nil {
		return fmt.Errorf("saving the notification state: %w", err)
	}
	return nil
}
