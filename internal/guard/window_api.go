package guard

import (
	"time"

	yaml "go.yaml.in/yaml/v3"
)

// This file holds the change windows' API as stubs; window.go replaces
// them.

// Schedule is a compiled set of windows.
type Schedule struct{}

// CompileWindows checks and compiles ws: an unknown kind, a bad cron
// expression, a duration that is not positive or an unknown time zone is
// an error naming the window's file:line:col. No windows means always
// open.
func CompileWindows(ws []Window) (*Schedule, error) { return nil, nil }

// WindowState says whether an apply at a time is allowed by the windows.
type WindowState struct {
	// Open is true when an apply is allowed: no deny window is active,
	// and an allow window is active or there are none.
	Open bool `json:"open"`
	// Reason says why it is closed: "deny window \"0 22 * * 5\" for 60h
	// (Europe/Berlin) is active until 2026-12-07T10:00:00+01:00", or "no
	// allow window is active".
	Reason string `json:"reason,omitempty"`
	// Next is when it opens next (zero when open, or when it never does
	// within a year).
	Next time.Time `json:"next,omitempty"`
}

// At says whether an apply at now is allowed. A nil Schedule is always
// open.
func (s *Schedule) At(now time.Time) WindowState { return WindowState{Open: true} }

// ParseWindows reads a windows: node (a list of windows, each kind,
// schedule, duration, timeZone) of kubeplan.yaml. Errors as ParseConfig's;
// CompileWindows checks the values.
func ParseWindows(file string, n *yaml.Node) ([]Window, error) { return nil, nil }
