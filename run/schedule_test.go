package run

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/project"
)

func TestScheduleOrderAndBound(t *testing.T) {
	ps := []project.Project{
		{Name: "app", DependsOn: []string{"crds", "namespaces"}, ClusterName: "dev"},
		{Name: "crds", ClusterName: "dev"},
		{Name: "namespaces", ClusterName: "dev"},
		{Name: "other-1", ClusterName: "dev"},
		{Name: "other-2", ClusterName: "dev"},
		{Name: "prod-1", ClusterName: "prod"},
		{Name: "uses-unselected", DependsOn: []string{"not-selected"}, ClusterName: "prod"},
	}
	reps := newReport(ps).Projects
	var mu sync.Mutex
	finished := map[string]time.Time{}
	started := map[string]time.Time{}
	var inDev, maxDev atomic.Int32
	err := schedule(context.Background(), ps, reps, 2, nil, func(ctx context.Context, i int, deps []*ProjectReport) {
		if ps[i].ClusterName == "dev" {
			n := inDev.Add(1)
			for {
				m := maxDev.Load()
				if n <= m || maxDev.CompareAndSwap(m, n) {
					break
				}
			}
			defer inDev.Add(-1)
		}
		mu.Lock()
		started[ps[i].Name] = time.Now()
		mu.Unlock()
		if ps[i].Name == "app" && len(deps) != 2 {
			t.Errorf("app got %d dependency reports, want 2", len(deps))
		}
		time.Sleep(20 * time.Millisecond)
		reps[i].Status = NoChanges
		mu.Lock()
		finished[ps[i].Name] = time.Now()
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"crds", "namespaces"} {
		if !started["app"].After(finished[d]) {
			t.Errorf("app started before %s finished", d)
		}
	}
	if maxDev.Load() > 2 {
		t.Errorf("%d projects ran at once on one cluster, want at most 2", maxDev.Load())
	}
	if reps[6].Status != NoChanges {
		t.Errorf("a dependency that is not selected blocked its dependent: %s %s", reps[6].Status, reps[6].Error)
	}
}

func TestScheduleSkipsDependentsOfFailures(t *testing.T) {
	ps := []project.Project{{Name: "a"}, {Name: "b", DependsOn: []string{"a"}}, {Name: "c", DependsOn: []string{"b"}}, {Name: "d"}}
	reps := newReport(ps).Projects
	_ = schedule(context.Background(), ps, reps, 0, nil, func(ctx context.Context, i int, _ []*ProjectReport) {
		if ps[i].Name == "a" {
			reps[i].Status, reps[i].Error = Failed, "boom"
			return
		}
		reps[i].Status = Changes
	})
	want := []Status{Failed, Skipped, Skipped, Changes}
	for i, w := range want {
		if reps[i].Status != w {
			t.Errorf("%s: %s, want %s", ps[i].Name, reps[i].Status, w)
		}
	}
	if !strings.Contains(reps[1].Error, "depends on a, which failed") || !strings.Contains(reps[2].Error, "depends on b, which was skipped") {
		t.Errorf("reasons: %q, %q", reps[1].Error, reps[2].Error)
	}
}

func TestScheduleRefusesCycles(t *testing.T) {
	ps := []project.Project{{Name: "a", DependsOn: []string{"c"}}, {Name: "b", DependsOn: []string{"a"}}, {Name: "c", DependsOn: []string{"b"}}}
	err := schedule(context.Background(), ps, newReport(ps).Projects, 0, nil, func(context.Context, int, []*ProjectReport) {
		t.Error("a project of a cycle ran")
	})
	if err == nil || !strings.Contains(err.Error(), "a -> c -> b -> a") {
		t.Fatalf("err = %v", err)
	}
}

func TestScheduleStopped(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ps := []project.Project{{Name: "a"}}
	reps := newReport(ps).Projects
	_ = schedule(ctx, ps, reps, 0, nil, func(context.Context, int, []*ProjectReport) { t.Error("ran after the stop") })
	if reps[0].Status != Skipped || !strings.Contains(reps[0].Error, "stopped") {
		t.Errorf("%s %q", reps[0].Status, reps[0].Error)
	}
}

// Once halt is closed the projects under way finish and no other starts.
func TestScheduleHalted(t *testing.T) {
	ps := []project.Project{{Name: "a"}, {Name: "b", DependsOn: []string{"a"}}, {Name: "c", DependsOn: []string{"b"}}}
	reps := newReport(ps).Projects
	halt := make(chan struct{})
	var ran []string
	_ = schedule(context.Background(), ps, reps, 1, halt, func(_ context.Context, i int, _ []*ProjectReport) {
		ran = append(ran, ps[i].Name)
		reps[i].Status = NoChanges
		if ps[i].Name == "a" {
			close(halt) // SIGTERM while a runs
		}
	})
	if strings.Join(ran, ",") != "a" {
		t.Fatalf("ran %v, want only a", ran)
	}
	if reps[0].Status != NoChanges || reps[1].Status != Skipped || reps[2].Status != Skipped {
		t.Errorf("statuses %s %s %s", reps[0].Status, reps[1].Status, reps[2].Status)
	}
}
