package config

import (
	"strings"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/internal/guard"
)

// windows: in defaults and in an entry are read with their positions; an
// entry's empty list is kept apart from no windows: key.
func TestParseWindows(t *testing.T) {
	c, err := Parse("kubeplan.yaml", []byte(`defaults:
  windows:
    - kind: deny
      schedule: "0 0 * * 6"
      duration: 48h
      timeZone: Europe/Berlin
projects:
  - path: shop
    windows:
      - {kind: allow, schedule: "0 9 * * 1-5", duration: 8h, timeZone: Europe/Berlin}
  - path: ops
    windows: []
  - path: web
`))
	if err != nil {
		t.Fatal(err)
	}
	d := c.Defaults.Windows
	if len(d) != 1 || d[0].Kind != "deny" || d[0].Schedule != "0 0 * * 6" || d[0].Duration != 48*time.Hour || d[0].TimeZone != "Europe/Berlin" {
		t.Fatalf("defaults windows: %+v", d)
	}
	if d[0].File != "kubeplan.yaml" || d[0].At != (guard.Pos{Line: 3, Col: 7}) || d[0].Pos["schedule"] != (guard.Pos{Line: 4, Col: 17}) || c.At(c.Defaults.Pos["windows"]) != "kubeplan.yaml:3:5" {
		t.Errorf("defaults windows positions: %+v at %v", d[0], c.Defaults.Pos["windows"])
	}
	if w := c.Projects[0].Windows; len(w) != 1 || w[0].Kind != "allow" || w[0].At != (guard.Pos{Line: 10, Col: 9}) {
		t.Errorf("shop windows: %+v", w)
	}
	if w := c.Projects[1].Windows; w == nil || len(w) != 0 {
		t.Errorf("ops windows: [] = %#v, want empty and set", w)
	}
	if w := c.Projects[2].Windows; w != nil {
		t.Errorf("web windows = %#v, want nil (not set)", w)
	}
}

// A window kubeplan cannot use is an error at its key when the file is
// read, wherever it is.
func TestParseWindowsErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"kind in defaults", "defaults:\n  windows:\n    - {kind: block, schedule: \"0 0 * * *\", duration: 1h}\n",
			`k.yaml:3:14: window kind "block": want allow or deny`},
		{"cron in an entry", "projects:\n  - path: a\n    windows:\n      - kind: deny\n        schedule: \"0 0 * *\"\n        duration: 1h\n",
			`k.yaml:5:19: window schedule "0 0 * *": expected exactly 5 fields, found 4`},
		{"time zone in the second entry", "projects:\n  - path: a\n  - path: b\n    windows:\n      - kind: allow\n        schedule: \"@daily\"\n        duration: 2h\n        timeZone: Mars/Olympus\n",
			`k.yaml:8:19: window time zone "Mars/Olympus" is unknown: want an IANA name`},
		{"duration zero", "defaults:\n  windows: [{kind: deny, schedule: \"@weekly\", duration: 0s}]\n",
			`k.yaml:2:57: window duration 0s: want a duration above 0`},
		{"duration syntax", "defaults:\n  windows: [{kind: deny, schedule: \"@weekly\", duration: 2d}]\n",
			`k.yaml:2:57: windows[0].duration: want a duration such as 1h, 90m or 1h30m, got "2d"`},
		{"unknown key", "defaults:\n  windows:\n    - {kind: deny, schedule: \"@weekly\", duration: 1h, zone: UTC}\n",
			`k.yaml:3:55: unknown key "zone" in windows[0]`},
		{"missing schedule", "defaults:\n  windows:\n    - kind: deny\n      duration: 1h\n",
			`k.yaml:3:7: windows[0]: schedule is required`},
		{"not a list", "defaults:\n  windows: {kind: deny}\n",
			`k.yaml:2:12: windows: want a list of windows`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("k.yaml", []byte(tc.in))
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("err = %v\nwant %s", err, tc.want)
			}
		})
	}
}
