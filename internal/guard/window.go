package guard

import (
	"fmt"
	"strings"
	"time"

	// The zones travel with the binary: an image without /usr/share/zoneinfo
	// (distroless, scratch) must read "Europe/Berlin" as a laptop does.
	_ "time/tzdata"

	"github.com/robfig/cron/v3"
	yaml "go.yaml.in/yaml/v3"
)

// The kinds of windows.
const (
	WindowAllow = "allow"
	WindowDeny  = "deny"
)

// MaxWindowDuration bounds a window's duration: the windows are searched a
// year ahead (WindowState.Next), and a longer freeze is a mistake.
const MaxWindowDuration = 366 * 24 * time.Hour

// windowYears is how far ahead, in years, Next is searched.
const windowYears = 1

// maxWindowSteps bounds that search (see windowSearch): windows come from
// pull requests, and windows every minute that never leave a gap would
// take seconds to step through for a year. Hourly windows change state
// some 17,500 times a year.
const maxWindowSteps = 50_000

// Schedule is a compiled set of windows.
type Schedule struct {
	windows []compiledWindow
}

// compiledWindow is a window with its cron schedule and time zone.
type compiledWindow struct {
	Window
	cron cron.Schedule
	loc  *time.Location
}

// CompileWindows checks and compiles ws: an unknown kind, a bad cron
// expression, a duration that is not positive or an unknown time zone is
// an error naming the window's file:line:col. No windows means always
// open.
func CompileWindows(ws []Window) (*Schedule, error) {
	if len(ws) == 0 {
		return nil, nil
	}
	s := &Schedule{}
	for _, w := range ws {
		c, err := compileWindow(w)
		if err != nil {
			return nil, err
		}
		s.windows = append(s.windows, c)
	}
	return s, nil
}

// compileWindow checks one window's values.
func compileWindow(w Window) (compiledWindow, error) {
	c := compiledWindow{Window: w, loc: time.UTC}
	if w.Kind != WindowAllow && w.Kind != WindowDeny {
		return c, fmt.Errorf("%s: window kind %q: want allow or deny", windowAt(w, "kind"), w.Kind)
	}
	const want = `want 5 cron fields (minute hour day-of-month month day-of-week) such as "0 22 * * 5", or @hourly, @daily, @weekly, @monthly, @yearly`
	spec := strings.TrimSpace(w.Schedule)
	switch {
	case spec == "":
		return c, fmt.Errorf("%s: window has no schedule: %s", windowAt(w, "schedule"), want)
	case strings.HasPrefix(spec, "TZ=") || strings.HasPrefix(spec, "CRON_TZ="):
		return c, fmt.Errorf("%s: window schedule %q names its time zone: set it with timeZone: instead", windowAt(w, "schedule"), w.Schedule)
	case strings.HasPrefix(spec, "@every"):
		// @every counts from when it is asked, not from the clock, so no
		// window would ever have a start.
		return c, fmt.Errorf("%s: window schedule %q is not tied to the clock: %s", windowAt(w, "schedule"), w.Schedule, want)
	}
	sched, err := cron.ParseStandard(spec)
	if err != nil {
		return c, fmt.Errorf("%s: window schedule %q: %v; %s", windowAt(w, "schedule"), w.Schedule, err, want)
	}
	// February 30th parses but never comes: say so rather than keep a
	// window that is never active.
	if sched.Next(time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)).IsZero() {
		return c, fmt.Errorf("%s: window schedule %q never fires: check its day and month", windowAt(w, "schedule"), w.Schedule)
	}
	c.cron = sched
	if w.Duration <= 0 || w.Duration > MaxWindowDuration {
		return c, fmt.Errorf("%s: window duration %s: want a duration above 0 and at most 8784h (366 days), such as 1h, 90m or 1h30m",
			windowAt(w, "duration"), w.Duration)
	}
	if w.TimeZone != "" {
		// "Local" would make the window depend on the machine it runs on.
		loc, err := time.LoadLocation(w.TimeZone)
		if err != nil || w.TimeZone == "Local" {
			return c, fmt.Errorf("%s: window time zone %q is unknown: want an IANA name such as Europe/Berlin, America/New_York or UTC",
				windowAt(w, "timeZone"), w.TimeZone)
		}
		c.loc = loc
	}
	return c, nil
}

// windowAt is "file:line:col" of w's key, else of w, else its file.
func windowAt(w Window, key string) string {
	p, ok := w.Pos[key]
	if !ok {
		p = w.At
	}
	switch {
	case p.Line == 0 && w.File == "":
		return "window"
	case p.Line == 0:
		return w.File
	}
	return fmt.Sprintf("%s:%d:%d", w.File, p.Line, p.Col)
}

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
	// within a year; also when windows that change every few seconds
	// leave it unknown after maxWindowSteps steps).
	Next time.Time `json:"next,omitempty"`
}

// At says whether an apply at now is allowed. A nil Schedule is always
// open.
func (s *Schedule) At(now time.Time) WindowState {
	if s == nil || len(s.windows) == 0 {
		return WindowState{Open: true}
	}
	sr := &windowSearch{s: s, horizon: now.AddDate(windowYears, 0, 0)}
	reason, until := sr.closed(now)
	if reason == "" {
		return WindowState{Open: true}
	}
	return WindowState{Reason: reason, Next: sr.opens(until)}
}

// windowSearch is one look ahead over a Schedule's windows, up to horizon and
// at most maxWindowSteps steps: the changes of state it steps through
// and the overlapping starts of a deny window it follows, together.
type windowSearch struct {
	s       *Schedule
	horizon time.Time
	steps   int // taken
}

// spent is true once the search has taken its steps.
func (sr *windowSearch) spent() bool { return sr.steps >= maxWindowSteps }

// opens is the first time from t on, up to horizon, when the windows
// allow an apply; zero when none, or when the steps are spent first. The
// state changes only where a window starts or ends: it steps from one
// such time to the next, each step forward by at least a second.
func (sr *windowSearch) opens(t time.Time) time.Time {
	for !t.IsZero() && !t.After(sr.horizon) && !sr.spent() {
		sr.steps++
		r, u := sr.closed(t)
		if r == "" {
			return t
		}
		t = u
	}
	return time.Time{}
}

// closed says why the windows refuse an apply at t ("" when they allow
// it), and until when that reason holds at least: the end of the active
// deny window that lasts longest, or the next start of an allow window
// (zero when none comes before horizon).
func (sr *windowSearch) closed(t time.Time) (reason string, until time.Time) {
	var deny *compiledWindow
	known := true
	allows, allowActive := false, false
	for i := range sr.s.windows {
		w := &sr.s.windows[i]
		start, ok := w.lastStart(t)
		active := ok && start.Add(w.Duration).After(t)
		switch {
		case w.Kind == WindowAllow:
			allows = true
			allowActive = allowActive || active
		case active:
			if end, k := sr.activeUntil(w, start); deny == nil || end.After(until) {
				deny, until, known = w, end, k
			}
		}
	}
	switch {
	case deny != nil:
		end := until.In(deny.loc).Format(time.RFC3339)
		if !known || until.After(sr.horizon) {
			end = "at least " + end
		}
		return fmt.Sprintf("deny window %q for %s (%s) is active until %s", deny.Schedule, windowDuration(deny.Duration), deny.loc, end), until
	case !allows || allowActive:
		return "", time.Time{}
	}
	for i := range sr.s.windows {
		w := &sr.s.windows[i]
		if w.Kind != WindowAllow {
			continue
		}
		if n := w.next(t); !n.IsZero() && !n.After(sr.horizon) && (until.IsZero() || n.Before(until)) {
			until = n
		}
	}
	return "no allow window is active", until
}

// activeUntil is when w, active from start, stops being active: the end
// of start's window, later when the windows of later starts overlap or
// touch it (a duration longer than the schedule's period), up to just
// after horizon. known is false when the steps were spent before the
// end was found: it is later than the time returned.
func (sr *windowSearch) activeUntil(w *compiledWindow, start time.Time) (end time.Time, known bool) {
	end = start.Add(w.Duration)
	for !end.After(sr.horizon) {
		if sr.spent() {
			return end, false
		}
		sr.steps++
		later, ok := w.lastIn(start, end)
		if !ok {
			break
		}
		start, end = later, later.Add(w.Duration)
	}
	return end, true
}

// next is the first start of w after t (zero when none within five years,
// as cron says). The schedule is read on the clock of w's time zone.
func (w *compiledWindow) next(t time.Time) time.Time {
	n := w.cron.Next(t.In(w.loc))
	if n.IsZero() {
		return n
	}
	return n.In(t.Location())
}

// lastStart is the latest start of w at or before t that can still be
// active (after t - Duration); ok is false when there is none.
//
// cron only looks forward, so this bisects: starts fall on whole
// seconds, and lo, hi keep "a start comes after lo, at or before t" and
// "none comes after hi, at or before t" until they are a second apart.
// That finds the last start in a few dozen steps whatever the period and
// the duration (a window of a week on a schedule of every minute), and
// the clocks' changes are cron's: it is asked at absolute times only.
func (w *compiledWindow) lastStart(t time.Time) (time.Time, bool) {
	return w.lastIn(t.Add(-w.Duration), t)
}

// lastIn is the latest start of w in (lo, t], or false when none.
func (w *compiledWindow) lastIn(lo, t time.Time) (time.Time, bool) {
	t, lo = t.Truncate(time.Second), lo.Truncate(time.Second)
	if f := w.next(lo); f.IsZero() || f.After(t) {
		return time.Time{}, false
	}
	hi := t
	for hi.Sub(lo) > time.Second {
		mid := lo.Add(hi.Sub(lo) / 2).Truncate(time.Second)
		if f := w.next(mid); !f.IsZero() && !f.After(t) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return w.next(lo), true
}

// windowDuration writes d as written in kubeplan.yaml: 60h, 1h30m, 90s.
func windowDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// ParseWindows reads a windows: node (a list of windows, each kind,
// schedule, duration, timeZone) of kubeplan.yaml. Errors as ParseConfig's;
// CompileWindows checks the values. A null node is nil; an empty list is
// an empty, non-nil slice (a project that says it has no windows).
func ParseWindows(file string, n *yaml.Node) ([]Window, error) {
	n = windowDeref(n)
	if windowNull(n) {
		return nil, nil
	}
	fail := func(n *yaml.Node, format string, args ...any) error {
		return fmt.Errorf("%s:%d:%d: %s", file, n.Line, n.Column, fmt.Sprintf(format, args...))
	}
	if n.Kind != yaml.SequenceNode {
		return nil, fail(n, "windows: want a list of windows (kind, schedule, duration, timeZone), got %s", windowKindName(n))
	}
	out := []Window{}
	for i, item := range n.Content {
		item = windowDeref(item)
		where := fmt.Sprintf("windows[%d]", i)
		if item.Kind != yaml.MappingNode {
			return nil, fail(item, "%s: want a mapping with kind, schedule, duration and timeZone, got %s", where, windowKindName(item))
		}
		w := Window{File: file, Pos: map[string]Pos{}, At: Pos{item.Line, item.Column}}
		for j := 0; j+1 < len(item.Content); j += 2 {
			k, v := item.Content[j], windowDeref(item.Content[j+1])
			switch {
			case k.Kind != yaml.ScalarNode || !windowKeys[k.Value]:
				return nil, fail(k, "unknown key %q in %s (want kind, schedule, duration or timeZone; see docs/change-windows.md)", k.Value, where)
			case w.Pos[k.Value] != (Pos{}):
				return nil, fail(k, "key %q is given twice in %s", k.Value, where)
			}
			if v.Kind != yaml.ScalarNode || windowNull(v) {
				return nil, fail(v, "%s.%s: want a string, got %s", where, k.Value, windowKindName(v))
			}
			switch k.Value {
			case "kind":
				w.Kind = v.Value
			case "schedule":
				w.Schedule = v.Value
			case "timeZone":
				w.TimeZone = v.Value
			case "duration":
				d, err := time.ParseDuration(v.Value)
				if err != nil {
					return nil, fail(v, "%s.duration: want a duration such as 1h, 90m or 1h30m, got %q", where, v.Value)
				}
				w.Duration = d
			}
			w.Pos[k.Value] = Pos{v.Line, v.Column}
		}
		for _, key := range []string{"kind", "schedule", "duration"} {
			if _, ok := w.Pos[key]; !ok {
				return nil, fail(item, "%s: %s is required (see docs/change-windows.md)", where, key)
			}
		}
		out = append(out, w)
	}
	return out, nil
}

// windowKeys are the keys of a window.
var windowKeys = map[string]bool{"kind": true, "schedule": true, "duration": true, "timeZone": true}

// windowDeref follows an alias (*anchor) to the node it names.
func windowDeref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

// windowNull is true for a missing value, "~" and "null".
func windowNull(n *yaml.Node) bool {
	return n == nil || n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// windowKindName names a node's type for messages.
func windowKindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	}
	if windowNull(n) {
		return "null"
	}
	return fmt.Sprintf("%q", n.Value)
}
