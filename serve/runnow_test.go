package serve

import (
	"slices"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/project"
)

// TestRunNow: a request makes a project due whatever its interval; a
// burst of requests is one wake-up and one run; a request made while the
// project runs stands for the next round, one made before its run began
// is done when it ends.
func TestRunNow(t *testing.T) {
	s := &server{o: Options{Interval: time.Hour}, next: map[string]time.Time{}, start: map[string]time.Time{},
		requested: map[string]time.Time{}, wake: make(chan struct{}, 1)}
	ps := []project.Project{{Name: "web"}, {Name: "db"}}
	names := func(ps []project.Project) []string {
		var out []string
		for _, p := range ps {
			out = append(out, p.Name)
		}
		return out
	}
	start := time.Now()
	for _, p := range ps {
		s.scheduleNext(p, start)
	}
	if due := s.due(ps, start.Add(time.Minute)); len(due) != 0 {
		t.Fatalf("nothing is due within the interval, got %v", names(due))
	}
	for range 5 {
		s.runNow([]string{"web"})
	}
	if len(s.wake) != 1 {
		t.Fatalf("a burst of requests is one pending wake-up, got %d", len(s.wake))
	}
	<-s.wake
	round := time.Now()
	if due := names(s.due(ps, round)); !slices.Equal(due, []string{"web"}) {
		t.Fatalf("due after the request: %v, want [web]", due)
	}
	s.scheduleNext(ps[0], round)
	if due := s.due(ps, round.Add(time.Minute)); len(due) != 0 {
		t.Fatalf("the request is done once web ran: %v", names(due))
	}
	// Asked again while it runs: it stands for the next round.
	round = time.Now()
	time.Sleep(time.Millisecond)
	s.runNow([]string{"web"})
	s.scheduleNext(ps[0], round)
	if due := names(s.due(ps, round.Add(time.Minute))); !slices.Equal(due, []string{"web"}) {
		t.Fatalf("a request made during the run stands: due %v", due)
	}
}
