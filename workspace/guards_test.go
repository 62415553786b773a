package workspace

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/project"
)

const cm = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n"

// windowsRepo declares a weekend freeze in defaults, business hours for
// shop, no windows for ops, and web and the discovered tools with the
// defaults'.
func windowsRepo(t *testing.T) string {
	return write(t, map[string]string{
		"kubeplan.yaml": `defaults:
  windows:
    - {kind: deny, schedule: "0 0 * * 6", duration: 48h, timeZone: Europe/Berlin}
projects:
  - path: shop
    windows:
      - {kind: allow, schedule: "0 9 * * 1-5", duration: 8h, timeZone: Europe/Berlin}
  - path: ops
    windows: []
  - path: web
  - path: tools/*
`,
		"shop/cm.yaml":    cm,
		"ops/cm.yaml":     cm,
		"web/cm.yaml":     cm,
		"tools/a/cm.yaml": cm,
	})
}

var (
	saturday  = time.Date(2026, 12, 5, 10, 0, 0, 0, time.UTC)
	wednesday = time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC) // 10:00 in Berlin
	evening   = time.Date(2026, 12, 2, 19, 0, 0, 0, time.UTC)
)

const weekendDenied = `deny window "0 0 * * 6" for 48h (Europe/Berlin) is active until 2026-12-07T00:00:00+01:00`

func byName(t *testing.T, ps []project.Project) map[string]project.Project {
	t.Helper()
	out := map[string]project.Project{}
	for _, p := range ps {
		out[p.Name] = p
	}
	return out
}

// A project gets its entry's windows over the defaults' (an empty list
// means none), and every project the workspace's guards.
func TestProjectWindows(t *testing.T) {
	dir := windowsRepo(t)
	ws, err := Open(Options{From: dir, Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	ps, err := ws.Projects()
	if err != nil {
		t.Fatal(err)
	}
	got := byName(t, ps)
	if len(got) != 4 {
		t.Fatalf("projects: %v", got)
	}
	set, err := ws.Guards()
	if err != nil || set == nil {
		t.Fatalf("Guards() = %v, %v", set, err)
	}
	for name, p := range got {
		if p.Guards != set {
			t.Errorf("%s: Guards = %p, want the workspace's %p", name, p.Guards, set)
		}
	}
	for _, tc := range []struct {
		project string
		at      time.Time
		open    bool
		reason  string
	}{
		{"shop", wednesday, true, ""},
		{"shop", evening, false, "no allow window is active"},
		{"shop", saturday, false, "no allow window is active"}, // its own windows, not the freeze
		{"web", saturday, false, weekendDenied},
		{"web", evening, true, ""},
		{"tools-a", saturday, false, weekendDenied},
		{"ops", saturday, true, ""},
	} {
		st := got[tc.project].Windows.At(tc.at)
		if st.Open != tc.open || st.Reason != tc.reason {
			t.Errorf("%s at %s: open %v %q, want open %v %q", tc.project, tc.at, st.Open, st.Reason, tc.open, tc.reason)
		}
	}
	if got["ops"].Windows != nil {
		t.Errorf("ops: windows: [] gives %v, want nil (always open)", got["ops"].Windows)
	}
}

// Discovered projects (no projects: key) get the defaults' windows; no
// kubeplan.yaml gives no windows and the built-in rules.
func TestDiscoveredWindows(t *testing.T) {
	dir := write(t, map[string]string{
		"kubeplan.yaml": "defaults:\n  windows: [{kind: deny, schedule: \"0 0 * * 6\", duration: 48h, timeZone: Europe/Berlin}]\n",
		"a/cm.yaml":     cm,
	})
	ws, err := Open(Options{From: dir, Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	ps, err := ws.Projects()
	if err != nil || len(ps) != 1 {
		t.Fatalf("projects %v, %v", ps, err)
	}
	if st := ps[0].Windows.At(saturday); st.Reason != weekendDenied || ps[0].Guards == nil {
		t.Errorf("discovered: %+v, guards %v", st, ps[0].Guards)
	}

	bare := write(t, map[string]string{"a/cm.yaml": cm})
	ws, err = Open(Options{From: bare, Root: bare})
	if err != nil {
		t.Fatal(err)
	}
	if ws.Config.File != "" {
		t.Fatalf("found a config: %s", ws.Config.File)
	}
	ps, err = ws.Projects()
	if err != nil || len(ps) != 1 || ps[0].Guards == nil || ps[0].Windows != nil {
		t.Fatalf("without kubeplan.yaml: %+v, %v", ps, err)
	}
}

// A plain invocation's project has the workspace's guards and the
// defaults' windows; without kubeplan.yaml the built-in rules and none.
func TestSingleGuardsAndWindows(t *testing.T) {
	dir := windowsRepo(t)
	ws, err := Open(Options{From: dir, Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	p := ws.Single([]string{filepath.Join(dir, "web")}, "configmap/x")
	if set, _ := ws.Guards(); p.Guards == nil || p.Guards != set {
		t.Errorf("single: Guards %v", p.Guards)
	}
	if st := p.Windows.At(saturday); st.Reason != weekendDenied {
		t.Errorf("single at Saturday: %+v", st)
	}
	if ps, err := ws.Projects(); err != nil || len(ps) != 1 || ps[0].Guards != p.Guards {
		t.Errorf("Projects after Single: %+v, %v", ps, err)
	}

	bare := write(t, map[string]string{"cm.yaml": cm})
	ws, err = Open(Options{From: bare, Root: bare})
	if err != nil {
		t.Fatal(err)
	}
	p = ws.Single([]string{bare}, "")
	if p.Guards == nil || p.Windows != nil {
		t.Errorf("single without kubeplan.yaml: guards %v, windows %v", p.Guards, p.Windows)
	}
}

// A window kubeplan cannot use fails opening the workspace at its place.
func TestOpenBadWindow(t *testing.T) {
	dir := write(t, map[string]string{
		"kubeplan.yaml": "projects:\n  - path: a\n    windows:\n      - {kind: deny, schedule: \"0 0 * * 6\", duration: 48h, timeZone: Europe/Berln}\n",
		"a/cm.yaml":     cm,
	})
	_, err := Open(Options{From: dir, Root: dir})
	if err == nil || !strings.HasSuffix(strings.SplitN(err.Error(), ": window", 2)[0], "kubeplan.yaml:4:70") ||
		!strings.Contains(err.Error(), `window time zone "Europe/Berln" is unknown`) {
		t.Errorf("err = %v", err)
	}
}

// A guard rule that does not compile fails opening the workspace at the
// rule's place, and so fails every verb (lint included).
func TestOpenBadGuard(t *testing.T) {
	dir := write(t, map[string]string{
		"kubeplan.yaml": `guards:
  rules:
    - name: typo
      outcome: deny
      expression: change.kidn == 'Secret'
`,
		"a/cm.yaml": cm,
	})
	_, err := Open(Options{From: dir, Root: dir})
	if err == nil || !strings.Contains(err.Error(), "kubeplan.yaml:5:") || !strings.Contains(err.Error(), "kidn") {
		t.Errorf("err = %v", err)
	}
	// lint opens its workspace the same way.
	if _, _, _, err := LintInput(Options{Overrides: Overrides{ConfigFile: filepath.Join(dir, "kubeplan.yaml")}}, []string{dir}, ""); err == nil || !strings.Contains(err.Error(), "kidn") {
		t.Errorf("lint: err = %v", err)
	}
}
