package guard

import (
	"strings"
	"testing"
	"time"

	yaml "go.yaml.in/yaml/v3"
)

func berlinZone(t *testing.T) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func mkWindow(kind, schedule string, d time.Duration, tz string) Window {
	return Window{Kind: kind, Schedule: schedule, Duration: d, TimeZone: tz}
}

// wallTime is a wall-clock time in loc.
func wallTime(loc *time.Location, y int, m time.Month, d, h, min int) time.Time {
	return time.Date(y, m, d, h, min, 0, 0, loc)
}

// TestWindowAt checks the state and when it next opens on real calendars:
// Europe/Berlin (CET, CEST and the changes between them), durations
// longer than the schedule's period, allow and deny together.
func TestWindowAt(t *testing.T) {
	ber := berlinZone(t)
	const (
		weekendDeny = "0 0 * * 6"
		noAllow     = "no allow window is active"
	)
	business := mkWindow(WindowAllow, "0 9 * * 1-5", 8*time.Hour, "Europe/Berlin")
	for _, tc := range []struct {
		name    string
		windows []Window
		now     time.Time
		open    bool
		reason  string
		next    time.Time
	}{
		{"the API's example: Friday 22:00 for 60h",
			[]Window{mkWindow(WindowDeny, "0 22 * * 5", 60*time.Hour, "Europe/Berlin")}, wallTime(time.UTC, 2026, 12, 5, 10, 0), false,
			`deny window "0 22 * * 5" for 60h (Europe/Berlin) is active until 2026-12-07T10:00:00+01:00`, wallTime(ber, 2026, 12, 7, 10, 0)},
		{"weekend deny: Saturday morning",
			[]Window{mkWindow(WindowDeny, weekendDeny, 48*time.Hour, "Europe/Berlin")}, wallTime(ber, 2026, 12, 5, 10, 0), false,
			`deny window "0 0 * * 6" for 48h (Europe/Berlin) is active until 2026-12-07T00:00:00+01:00`, wallTime(ber, 2026, 12, 7, 0, 0)},
		{"weekend deny: the start is in the window",
			[]Window{mkWindow(WindowDeny, weekendDeny, 48*time.Hour, "Europe/Berlin")}, wallTime(ber, 2026, 12, 5, 0, 0), false,
			`deny window "0 0 * * 6" for 48h (Europe/Berlin) is active until 2026-12-07T00:00:00+01:00`, wallTime(ber, 2026, 12, 7, 0, 0)},
		{"weekend deny: a nanosecond before Saturday in Berlin",
			[]Window{mkWindow(WindowDeny, weekendDeny, 48*time.Hour, "Europe/Berlin")}, wallTime(ber, 2026, 12, 5, 0, 0).Add(-time.Nanosecond), true, "", time.Time{}},
		{"weekend deny: Friday 23:30 UTC is Saturday in Berlin",
			[]Window{mkWindow(WindowDeny, weekendDeny, 48*time.Hour, "Europe/Berlin")}, wallTime(time.UTC, 2026, 12, 4, 23, 30), false,
			`deny window "0 0 * * 6" for 48h (Europe/Berlin) is active until 2026-12-07T00:00:00+01:00`, wallTime(ber, 2026, 12, 7, 0, 0)},
		{"weekend deny: the end is not in the window",
			[]Window{mkWindow(WindowDeny, weekendDeny, 48*time.Hour, "Europe/Berlin")}, wallTime(ber, 2026, 12, 7, 0, 0), true, "", time.Time{}},
		{"weekend deny in UTC: Saturday 00:30 in Berlin is still Friday",
			[]Window{mkWindow(WindowDeny, weekendDeny, 48*time.Hour, "")}, wallTime(ber, 2026, 12, 5, 0, 30), true, "", time.Time{}},
		// A duration is elapsed time: over the night the clocks go forward
		// (2027-03-28) the weekend's 48 hours end at 01:00 on Monday.
		{"weekend deny across spring forward: elapsed time",
			[]Window{mkWindow(WindowDeny, weekendDeny, 48*time.Hour, "Europe/Berlin")}, wallTime(ber, 2027, 3, 29, 0, 30), false,
			`deny window "0 0 * * 6" for 48h (Europe/Berlin) is active until 2027-03-29T01:00:00+02:00`, wallTime(ber, 2027, 3, 29, 1, 0)},
		{"weekend deny across fall back: elapsed time",
			[]Window{mkWindow(WindowDeny, weekendDeny, 48*time.Hour, "Europe/Berlin")}, wallTime(ber, 2026, 10, 25, 23, 30), true, "", time.Time{}},
		// Every hour of Saturday and Sunday, each for an hour, follows the
		// wall clock: the windows touch, through the missing hour and the
		// repeated one, and end at midnight.
		{"hourly weekend deny across spring forward",
			[]Window{mkWindow(WindowDeny, "0 * * * 6,0", time.Hour, "Europe/Berlin")}, time.Date(2027, 3, 28, 1, 30, 0, 0, time.UTC), false,
			`deny window "0 * * * 6,0" for 1h (Europe/Berlin) is active until 2027-03-29T00:00:00+02:00`, wallTime(ber, 2027, 3, 29, 0, 0)},
		{"hourly weekend deny across fall back, in the repeated hour",
			[]Window{mkWindow(WindowDeny, "0 * * * 6,0", time.Hour, "Europe/Berlin")}, time.Date(2026, 10, 25, 1, 30, 0, 0, time.UTC), false,
			`deny window "0 * * * 6,0" for 1h (Europe/Berlin) is active until 2026-10-26T00:00:00+01:00`, wallTime(ber, 2026, 10, 26, 0, 0)},
		{"hourly weekend deny: Monday",
			[]Window{mkWindow(WindowDeny, "0 * * * 6,0", time.Hour, "Europe/Berlin")}, wallTime(ber, 2027, 3, 29, 0, 0), true, "", time.Time{}},
		// cron's rule at the clock changes: a start in the missing hour does
		// not happen that day, one in the repeated hour happens in both.
		{"a start in the missing hour",
			[]Window{mkWindow(WindowDeny, "30 2 * * *", 10*time.Minute, "Europe/Berlin")}, time.Date(2027, 3, 28, 0, 35, 0, 0, time.UTC), true, "", time.Time{}},
		{"a start in the repeated hour: the first",
			[]Window{mkWindow(WindowDeny, "30 2 * * *", 10*time.Minute, "Europe/Berlin")}, time.Date(2026, 10, 25, 0, 35, 0, 0, time.UTC), false,
			`deny window "30 2 * * *" for 10m (Europe/Berlin) is active until 2026-10-25T02:40:00+02:00`, time.Date(2026, 10, 25, 0, 40, 0, 0, time.UTC)},
		{"a start in the repeated hour: the second",
			[]Window{mkWindow(WindowDeny, "30 2 * * *", 10*time.Minute, "Europe/Berlin")}, time.Date(2026, 10, 25, 1, 35, 0, 0, time.UTC), false,
			`deny window "30 2 * * *" for 10m (Europe/Berlin) is active until 2026-10-25T02:40:00+01:00`, time.Date(2026, 10, 25, 1, 40, 0, 0, time.UTC)},
		{"business hours: Wednesday 10:00",
			[]Window{business}, wallTime(ber, 2026, 12, 2, 10, 0), true, "", time.Time{}},
		{"business hours: Wednesday 17:00 is the end",
			[]Window{business}, wallTime(ber, 2026, 12, 2, 17, 0), false, noAllow, wallTime(ber, 2026, 12, 3, 9, 0)},
		{"business hours: Friday evening opens on Monday",
			[]Window{business}, wallTime(ber, 2026, 12, 4, 18, 0), false, noAllow, wallTime(ber, 2026, 12, 7, 9, 0)},
		{"business hours in summer: 09:30 CEST is 07:30 UTC",
			[]Window{business}, time.Date(2026, 7, 1, 7, 30, 0, 0, time.UTC), true, "", time.Time{}},
		{"business hours in summer: 08:30 CEST is before",
			[]Window{business}, time.Date(2026, 7, 1, 6, 30, 0, 0, time.UTC), false, noAllow, wallTime(ber, 2026, 7, 1, 9, 0)},
		// Durations longer than the period: starts every weekday at
		// midnight for 36h overlap, so Monday to Saturday noon is one
		// window; Saturday 11:00 is active from Friday's start, 35h ago.
		{"overlapping starts: Tuesday",
			[]Window{mkWindow(WindowDeny, "0 0 * * 1-5", 36*time.Hour, "")}, time.Date(2026, 12, 1, 5, 0, 0, 0, time.UTC), false,
			`deny window "0 0 * * 1-5" for 36h (UTC) is active until 2026-12-05T12:00:00Z`, time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)},
		{"overlapping starts: Saturday 11:00, 35h after the last",
			[]Window{mkWindow(WindowDeny, "0 0 * * 1-5", 36*time.Hour, "")}, time.Date(2026, 12, 5, 11, 0, 0, 0, time.UTC), false,
			`deny window "0 0 * * 1-5" for 36h (UTC) is active until 2026-12-05T12:00:00Z`, time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)},
		{"overlapping starts: Sunday",
			[]Window{mkWindow(WindowDeny, "0 0 * * 1-5", 36*time.Hour, "")}, time.Date(2026, 12, 6, 11, 0, 0, 0, time.UTC), true, "", time.Time{}},
		{"a week long on every minute never ends within a year",
			[]Window{mkWindow(WindowDeny, "* * * * *", 168*time.Hour, "")}, time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC), false,
			`deny window "* * * * *" for 168h (UTC) is active until at least `, time.Time{}},
		// A freeze for a date range: from 18 December 18:00 to 4 January
		// 08:00 (398h); the allow window opens on that Monday at 09:00.
		{"freeze over business hours",
			[]Window{business, mkWindow(WindowDeny, "0 18 18 12 *", 398*time.Hour, "Europe/Berlin")}, wallTime(ber, 2026, 12, 21, 10, 0), false,
			`deny window "0 18 18 12 *" for 398h (Europe/Berlin) is active until 2027-01-04T08:00:00+01:00`, wallTime(ber, 2027, 1, 4, 9, 0)},
		{"freeze: the deny wins over an active allow",
			[]Window{business, mkWindow(WindowDeny, "0 18 18 12 *", 398*time.Hour, "Europe/Berlin")}, wallTime(ber, 2026, 12, 18, 10, 0), true, "", time.Time{}},
		{"freeze: its start",
			[]Window{business, mkWindow(WindowDeny, "0 18 18 12 *", 398*time.Hour, "Europe/Berlin")}, wallTime(ber, 2026, 12, 18, 18, 0), false,
			`deny window "0 18 18 12 *" for 398h (Europe/Berlin) is active until 2027-01-04T08:00:00+01:00`, wallTime(ber, 2027, 1, 4, 9, 0)},
		{"two deny windows: the one lasting longer is named, the next opening after both",
			[]Window{mkWindow(WindowDeny, "0 12 * * *", 2*time.Hour, ""), mkWindow(WindowDeny, "30 13 * * *", 90*time.Minute, "")},
			time.Date(2026, 12, 2, 13, 45, 0, 0, time.UTC), false,
			`deny window "30 13 * * *" for 1h30m (UTC) is active until 2026-12-02T15:00:00Z`, time.Date(2026, 12, 2, 15, 0, 0, 0, time.UTC)},
		{"a deny ending inside another: the next opening waits for both",
			[]Window{mkWindow(WindowDeny, "0 12 * * *", 2*time.Hour, ""), mkWindow(WindowDeny, "30 13 * * *", 90*time.Minute, "")},
			time.Date(2026, 12, 2, 12, 15, 0, 0, time.UTC), false,
			`deny window "0 12 * * *" for 2h (UTC) is active until 2026-12-02T14:00:00Z`, time.Date(2026, 12, 2, 15, 0, 0, 0, time.UTC)},
		{"an allow window within the deny never opens that day",
			[]Window{mkWindow(WindowAllow, "0 9 * * *", time.Hour, ""), mkWindow(WindowDeny, "0 8 * * *", 3*time.Hour, "")},
			time.Date(2026, 12, 2, 8, 30, 0, 0, time.UTC), false,
			`deny window "0 8 * * *" for 3h (UTC) is active until 2026-12-02T11:00:00Z`, time.Time{}},
		{"allow only on 29 February: not within a year",
			[]Window{mkWindow(WindowAllow, "0 0 29 2 *", time.Hour, "")}, time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC), false, noAllow, time.Time{}},
		{"allow on 29 February: within a year",
			[]Window{mkWindow(WindowAllow, "0 0 29 2 *", time.Hour, "")}, time.Date(2027, 12, 2, 0, 0, 0, 0, time.UTC), false, noAllow,
			time.Date(2028, 2, 29, 0, 0, 0, 0, time.UTC)},
		{"a descriptor: @daily for 30m",
			[]Window{mkWindow(WindowAllow, "@daily", 30*time.Minute, "America/New_York")}, time.Date(2026, 12, 2, 5, 10, 0, 0, time.UTC), true, "", time.Time{}},
		{"a descriptor: @daily for 30m, after",
			[]Window{mkWindow(WindowAllow, "@daily", 30*time.Minute, "America/New_York")}, time.Date(2026, 12, 2, 5, 30, 0, 0, time.UTC), false, noAllow,
			time.Date(2026, 12, 3, 5, 0, 0, 0, time.UTC)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := CompileWindows(tc.windows)
			if err != nil {
				t.Fatal(err)
			}
			st := s.At(tc.now)
			if st.Open != tc.open || !strings.HasPrefix(st.Reason, tc.reason) || (tc.reason == "") != (st.Reason == "") {
				t.Errorf("At(%s) = open %v, %q\nwant open %v, %q", tc.now, st.Open, st.Reason, tc.open, tc.reason)
			}
			if !st.Next.Equal(tc.next) {
				t.Errorf("At(%s).Next = %s, want %s", tc.now, st.Next, tc.next)
			}
			if !st.Next.IsZero() {
				if after := s.At(st.Next); !after.Open {
					t.Errorf("not open at Next %s: %s", st.Next, after.Reason)
				}
				if before := s.At(st.Next.Add(-time.Second)); before.Open {
					t.Errorf("already open a second before Next %s", st.Next)
				}
			}
		})
	}
}

func TestWindowNone(t *testing.T) {
	s, err := CompileWindows(nil)
	if err != nil || s != nil {
		t.Fatalf("CompileWindows(nil) = %v, %v; want nil, nil", s, err)
	}
	if st := s.At(time.Now()); !st.Open || st.Reason != "" || !st.Next.IsZero() {
		t.Errorf("nil schedule: %+v", st)
	}
}

func TestCompileWindowsErrors(t *testing.T) {
	pos := func(w Window) Window {
		w.File, w.At = "kubeplan.yaml", Pos{4, 5}
		w.Pos = map[string]Pos{"kind": {4, 11}, "schedule": {5, 15}, "duration": {6, 15}, "timeZone": {7, 15}}
		return w
	}
	for _, tc := range []struct {
		name string
		w    Window
		want string
	}{
		{"kind", pos(mkWindow("block", "0 0 * * *", time.Hour, "")), `kubeplan.yaml:4:11: window kind "block": want allow or deny`},
		{"no kind", mkWindow("", "0 0 * * *", time.Hour, ""), `window: window kind "": want allow or deny`},
		{"cron fields", pos(mkWindow("deny", "0 25 * * *", time.Hour, "")), `kubeplan.yaml:5:15: window schedule "0 25 * * *": end of range (25) above maximum (23): 25; want 5 cron fields`},
		{"six fields", pos(mkWindow("deny", "0 0 0 * * *", time.Hour, "")), `kubeplan.yaml:5:15: window schedule "0 0 0 * * *": expected exactly 5 fields, found 6`},
		{"no schedule", pos(mkWindow("deny", "", time.Hour, "")), `kubeplan.yaml:5:15: window has no schedule: want 5 cron fields`},
		{"@every", pos(mkWindow("deny", "@every 1h", time.Hour, "")), `kubeplan.yaml:5:15: window schedule "@every 1h" is not tied to the clock`},
		{"CRON_TZ", pos(mkWindow("deny", "CRON_TZ=Europe/Berlin 0 0 * * *", time.Hour, "")), `kubeplan.yaml:5:15: window schedule "CRON_TZ=Europe/Berlin 0 0 * * *" names its time zone: set it with timeZone: instead`},
		{"never", pos(mkWindow("allow", "0 0 31 4 *", time.Hour, "")), `kubeplan.yaml:5:15: window schedule "0 0 31 4 *" never fires`},
		{"zero duration", pos(mkWindow("deny", "0 0 * * *", 0, "")), `kubeplan.yaml:6:15: window duration 0s: want a duration above 0`},
		{"negative duration", pos(mkWindow("deny", "0 0 * * *", -time.Hour, "")), `kubeplan.yaml:6:15: window duration -1h0m0s: want a duration above 0`},
		{"over a year", pos(mkWindow("deny", "0 0 * * *", 9000*time.Hour, "")), `kubeplan.yaml:6:15: window duration 9000h0m0s: want a duration above 0 and at most 8784h`},
		{"time zone", pos(mkWindow("deny", "0 0 * * *", time.Hour, "Europe/Berlim")), `kubeplan.yaml:7:15: window time zone "Europe/Berlim" is unknown: want an IANA name`},
		{"Local", pos(mkWindow("deny", "0 0 * * *", time.Hour, "Local")), `kubeplan.yaml:7:15: window time zone "Local" is unknown`},
		{"no position for the key: the window's", Window{Kind: "deny", Schedule: "0 0 * * *", File: "k.yaml", At: Pos{3, 5}}, `k.yaml:3:5: window duration 0s`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ok := pos(mkWindow("allow", "0 9 * * 1-5", time.Hour, "UTC"))
			_, err := CompileWindows([]Window{ok, tc.w})
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("err = %v\nwant %s", err, tc.want)
			}
		})
	}
}

func parseWindowsNode(t *testing.T, src string) ([]Window, error) {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	return ParseWindows("kubeplan.yaml", doc.Content[0].Content[1])
}

func TestParseWindows(t *testing.T) {
	ws, err := parseWindowsNode(t, `windows:
  - kind: deny
    schedule: "0 22 * * 5"
    duration: 60h
    timeZone: Europe/Berlin
  - {kind: allow, schedule: "@daily", duration: 1h30m}
`)
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != 2 {
		t.Fatalf("windows: %+v", ws)
	}
	w := ws[0]
	if w.Kind != "deny" || w.Schedule != "0 22 * * 5" || w.Duration != 60*time.Hour || w.TimeZone != "Europe/Berlin" || w.File != "kubeplan.yaml" {
		t.Errorf("window 0: %+v", w)
	}
	if w.At != (Pos{2, 5}) || w.Pos["kind"] != (Pos{2, 11}) || w.Pos["schedule"] != (Pos{3, 15}) || w.Pos["duration"] != (Pos{4, 15}) || w.Pos["timeZone"] != (Pos{5, 15}) {
		t.Errorf("window 0 positions: at %v, %v", w.At, w.Pos)
	}
	if w := ws[1]; w.Kind != "allow" || w.Schedule != "@daily" || w.Duration != 90*time.Minute || w.TimeZone != "" || w.Pos["duration"] != (Pos{6, 49}) {
		t.Errorf("window 1: %+v", w)
	}
	if _, err := CompileWindows(ws); err != nil {
		t.Errorf("compile: %v", err)
	}

	if ws, err := parseWindowsNode(t, "windows: []\n"); err != nil || ws == nil || len(ws) != 0 {
		t.Errorf("windows: [] = %#v, %v; want empty, not nil", ws, err)
	}
	if ws, err := parseWindowsNode(t, "windows:\n"); err != nil || ws != nil {
		t.Errorf("windows: null = %#v, %v; want nil", ws, err)
	}
}

func TestParseWindowsErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"not a list", "windows: {kind: deny}\n", `kubeplan.yaml:1:10: windows: want a list of windows (kind, schedule, duration, timeZone), got a mapping`},
		{"item not a mapping", "windows:\n  - deny\n", `kubeplan.yaml:2:5: windows[0]: want a mapping with kind, schedule, duration and timeZone, got "deny"`},
		{"unknown key", "windows:\n  - kind: deny\n    schedule: \"0 0 * * *\"\n    duration: 1h\n    timezone: UTC\n", `kubeplan.yaml:5:5: unknown key "timezone" in windows[0] (want kind, schedule, duration or timeZone; see docs/change-windows.md)`},
		{"twice", "windows:\n  - {kind: deny, kind: allow}\n", `kubeplan.yaml:2:18: key "kind" is given twice in windows[0]`},
		{"not a string", "windows:\n  - {kind: deny, schedule: [0, 0]}\n", `kubeplan.yaml:2:28: windows[0].schedule: want a string, got a list`},
		{"null", "windows:\n  - {kind: deny, schedule: ~}\n", `kubeplan.yaml:2:28: windows[0].schedule: want a string, got null`},
		{"duration", "windows:\n  - {kind: deny, schedule: \"0 0 * * *\", duration: 2 days}\n", `kubeplan.yaml:2:51: windows[0].duration: want a duration such as 1h, 90m or 1h30m, got "2 days"`},
		{"missing duration", "windows:\n  - kind: allow\n  - kind: deny\n    schedule: \"0 0 * * *\"\n", `kubeplan.yaml:2:5: windows[0]: schedule is required (see docs/change-windows.md)`},
		{"missing in the second", "windows:\n  - {kind: allow, schedule: \"@daily\", duration: 1h}\n  - {kind: deny, schedule: \"0 0 * * *\"}\n", `kubeplan.yaml:3:5: windows[1]: duration is required`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseWindowsNode(t, tc.in)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("err = %v\nwant %s", err, tc.want)
			}
		})
	}
}

func TestWindowDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{60 * time.Hour: "60h", 90 * time.Minute: "1h30m", 30 * time.Second: "30s", time.Hour + time.Second: "1h0m1s", 5 * time.Minute: "5m"} {
		if got := windowDuration(d); got != want {
			t.Errorf("windowDuration(%s) = %s, want %s", d, got, want)
		}
	}
}

// naiveOpen is the rule written out: a window is active at t when one of
// its starts s, found by walking cron forward, has s <= t < s+Duration.
func naiveOpen(s *Schedule, t time.Time) bool {
	allows, allowActive := false, false
	for _, w := range s.windows {
		active := false
		for f := w.next(t.Add(-w.Duration - time.Second)); !f.IsZero() && !f.After(t); f = w.next(f) {
			if f.Add(w.Duration).After(t) {
				active = true
			}
		}
		if w.Kind == WindowDeny && active {
			return false
		}
		if w.Kind == WindowAllow {
			allows, allowActive = true, allowActive || active
		}
	}
	return !allows || allowActive
}

// TestWindowAtAgainstTheRule compares At with the rule walked start by
// start, every 13 minutes over the days the clocks change in Berlin and in
// New York, and its Next with the first open time after (every start and
// end falls on a multiple of 5 minutes).
func TestWindowAtAgainstTheRule(t *testing.T) {
	s, err := CompileWindows([]Window{
		mkWindow(WindowAllow, "0 8-16/4 * * 1-6", 3*time.Hour, "Europe/Berlin"),
		mkWindow(WindowAllow, "30 1-3 * * 0", 50*time.Minute, "America/New_York"),
		mkWindow(WindowDeny, "15 */5 * * *", 100*time.Minute, "Europe/Berlin"),
		mkWindow(WindowDeny, "0 2 * * 0", 26*time.Hour, "Europe/Berlin"),
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, day := range []time.Time{
		time.Date(2027, 3, 26, 0, 0, 0, 0, time.UTC),  // Berlin springs forward on the 28th
		time.Date(2026, 10, 23, 0, 0, 0, 0, time.UTC), // and falls back on the 25th
		time.Date(2027, 3, 12, 0, 0, 0, 0, time.UTC),  // New York springs forward on the 14th
		time.Date(2026, 10, 30, 0, 0, 0, 0, time.UTC), // and falls back on 1 November
	} {
		for now := day; now.Before(day.Add(4 * 24 * time.Hour)); now = now.Add(13 * time.Minute) {
			st := s.At(now)
			if want := naiveOpen(s, now); st.Open != want {
				t.Fatalf("At(%s).Open = %v (%s), the rule says %v", now, st.Open, st.Reason, want)
			}
			if st.Open {
				continue
			}
			first := now.Truncate(5 * time.Minute).Add(5 * time.Minute)
			for !naiveOpen(s, first) {
				first = first.Add(5 * time.Minute)
			}
			if !st.Next.Equal(first) {
				t.Fatalf("At(%s).Next = %s, the first open time is %s", now, st.Next, first)
			}
		}
	}
}

// Windows from a pull request that change state every few seconds and
// never open, or a deny window every minute whose windows overlap by a
// second, are searched a bounded number of steps (a year of them would be
// a million), and Next is zero as for never; hourly windows that never
// open fit in the bound.
func TestWindowSearchBounded(t *testing.T) {
	now := time.Date(2026, 12, 2, 10, 30, 30, 0, time.UTC) // in no allow window
	for _, tc := range []struct {
		name       string
		windows    []Window
		reason     string
		boundedOut bool
	}{
		{"every minute", []Window{mkWindow(WindowAllow, "* * * * *", time.Second, ""), mkWindow(WindowDeny, "* * * * *", 2*time.Second, "")},
			"no allow window is active", true},
		{"every hour", []Window{mkWindow(WindowAllow, "0 * * * *", time.Minute, ""), mkWindow(WindowDeny, "0 * * * *", 2*time.Minute, "")},
			"no allow window is active", false},
		{"overlapping by a second", []Window{mkWindow(WindowDeny, "* * * * *", 61*time.Second, "")},
			`deny window "* * * * *" for 1m1s (UTC) is active until at least `, true},
	} {
		s, err := CompileWindows(tc.windows)
		if err != nil {
			t.Fatal(err)
		}
		st := s.At(now)
		if st.Open || !strings.HasPrefix(st.Reason, tc.reason) || !st.Next.IsZero() {
			t.Fatalf("%s: At(%s) = %+v", tc.name, now, st)
		}
		sr := &windowSearch{s: s, horizon: now.AddDate(windowYears, 0, 0)}
		if _, until := sr.closed(now); !sr.opens(until).IsZero() || sr.spent() != tc.boundedOut {
			t.Errorf("%s: %d steps (bound %d)", tc.name, sr.steps, maxWindowSteps)
		}
	}
}
