package serve

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/project"
)

var (
	t0   = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	ok   = RunResult{Project: "web", Revision: "0123456789abcdef", Subject: "bump", Applied: 2, Unchanged: 48, Start: t0, End: t0.Add(1500 * time.Millisecond)}
	bad  = RunResult{Project: "web", Revision: "fedcba9876543210", Err: errors.New("lint found 1 error(s)"), Findings: []string{"app/cm.yaml:6:3: invalid YAML"}, Start: t0, End: t0.Add(time.Second)}
	noop = RunResult{Project: "web", Revision: "fedcba9876543210", Unchanged: 50, Start: t0, End: t0.Add(time.Second)}
)

func TestMetricsObserve(t *testing.T) {
	m := newMetrics(newClusters(nil))
	m.observe(ok)
	m.observe(bad)
	want := `
# HELP kubeplan_run_result 1 when the project's last run succeeded, 0 when it failed.
# TYPE kubeplan_run_result gauge
kubeplan_run_result{project="web"} 0
# HELP kubeplan_runs_total Runs of the project, by result (success, failure).
# TYPE kubeplan_runs_total counter
kubeplan_runs_total{project="web",result="failure"} 1
kubeplan_runs_total{project="web",result="success"} 1
# HELP kubeplan_revision_info The git commit of the project's last run, as the revision label (value 1).
# TYPE kubeplan_revision_info gauge
kubeplan_revision_info{project="web",revision="fedcba9876543210"} 1
# HELP kubeplan_last_success_timestamp_seconds When the project's last successful run ended (Unix time).
# TYPE kubeplan_last_success_timestamp_seconds gauge
kubeplan_last_success_timestamp_seconds{project="web"} 1.7960400015e+09
`
	if err := testutil.GatherAndCompare(m.reg, strings.NewReader(want), "kubeplan_run_result", "kubeplan_runs_total", "kubeplan_revision_info", "kubeplan_last_success_timestamp_seconds"); err != nil {
		t.Error(err)
	}
	m.observe(noop)
	if got := testutil.ToFloat64(m.objects.WithLabelValues("web", "unchanged")); got != 50 {
		t.Errorf("unchanged = %v", got)
	}
	if got := testutil.ToFloat64(m.drift.WithLabelValues("web")); got != 0 {
		t.Errorf("drift after a no-op run = %v", got)
	}
	if n := testutil.CollectAndCount(m.duration); n != 1 {
		t.Errorf("%d duration series", n)
	}
}

func TestEventOfRun(t *testing.T) {
	cases := []struct {
		r            RunResult
		reason, typ  string
		note         string
		wantsAnEvent bool
	}{
		{ok, ReasonSucceeded, "Normal", "revision 0123456 (bump): 2 applied, 0 pruned, 48 unchanged", true},
		{RunResult{Revision: "0123456789", Pruned: 3}, ReasonPruned, "Normal", "revision 0123456: 0 applied, 3 pruned, 0 unchanged", true},
		{bad, ReasonFailed, "Warning", "revision fedcba9: lint found 1 error(s); app/cm.yaml:6:3: invalid YAML", true},
		{noop, "", "", "", false},
	}
	for _, c := range cases {
		reason, typ, ok := reasonOf(c.r)
		if reason != c.reason || typ != c.typ || ok != c.wantsAnEvent {
			t.Errorf("%+v: %s %s %v", c.r, reason, typ, ok)
		}
		if ok && note(c.r) != c.note {
			t.Errorf("note %q, want %q", note(c.r), c.note)
		}
	}
	long := bad
	long.Err = errors.New(strings.Repeat("x", 2000))
	if n := len(note(long)); n != maxNote {
		t.Errorf("a long note is %d bytes", n)
	}
}

// Objects are loaded once per project and revision.
func TestObjectCache(t *testing.T) {
	var c objectCache
	loads := 0
	load := func() ([]*manifest.Object, error) { loads++; return nil, errors.New("lint found 1 error(s)") }
	p := project.Project{Name: "web"}
	for range 3 {
		if _, err := c.at("rev1")(p, "shop", load); err == nil {
			t.Fatal("the cached error was lost")
		}
	}
	if loads != 1 {
		t.Fatalf("%d loads at one revision", loads)
	}
	_, _ = c.at("rev2")(p, "shop", load)
	if loads != 2 || c.len() != 1 {
		t.Errorf("after a new revision: %d loads, %d kept", loads, c.len())
	}
}

func TestSelected(t *testing.T) {
	all := []project.Project{{Name: "a", Path: "apps/a"}, {Name: "b", Path: "apps/b"}}
	got, err := selected("/repo", all, []string{"b", "a"})
	if err != nil || len(got) != 2 || got[0].Name != "a" {
		t.Errorf("%v %v", got, err)
	}
	if _, err := selected("/repo", all, []string{"c"}); err == nil || !strings.Contains(err.Error(), "no project named c") || !strings.Contains(err.Error(), "a, b") {
		t.Errorf("unknown name: %v", err)
	}
}

func TestInterval(t *testing.T) {
	o := Options{}
	if o.interval(project.Project{}) != DefaultInterval {
		t.Error("default")
	}
	o.Interval = time.Minute * 5
	if o.interval(project.Project{Interval: time.Second * 30}) != 30*time.Second || o.interval(project.Project{}) != 5*time.Minute {
		t.Error("project interval does not win")
	}
}

// A chart is loaded at every round: what its lookups read in the cluster
// may have changed at the same revision.
func TestObjectCacheRendersCharts(t *testing.T) {
	var c objectCache
	loads := 0
	load := func() ([]*manifest.Object, error) { loads++; return nil, nil }
	p := project.Project{Name: "db", Kind: project.Helm}
	for range 3 {
		_, _ = c.at("rev1")(p, "db", load)
	}
	if loads != 3 || c.len() != 0 {
		t.Errorf("a chart at one revision: %d loads, %d kept; want 3, 0", loads, c.len())
	}
}
