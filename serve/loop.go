package serve

import (
	"context"
	"time"

	"github.com/kubeplan/kubeplan/project"
)

// retryAfterFetchError is how soon a round is tried again after the git
// source could not be fetched (at most the interval).
const retryAfterFetchError = 30 * time.Second

// loop runs rounds until ctx ends: each runs the projects that are due,
// then it sleeps until the next one is, or until runNow wakes it.
func (s *server) loop(ctx context.Context) {
	for {
		wait := s.round(ctx)
		select {
		case <-ctx.Done():
			return
		case <-s.wake:
		case <-time.After(wait):
		}
	}
}

// runNow makes the named projects due at once and wakes the loop: a
// push, or a request to sync. Requests that come while a round runs are
// kept for the next round (a project running now is run again after it);
// a burst of them is one round, and one run per project.
func (s *server) runNow(names []string) {
	s.request(names, time.Now())
	s.wakeUp()
}

// request makes the named projects due at the next round, as asked at
// now: a run that begins after now does it.
func (s *server) request(names []string, now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, n := range names {
		s.requested[n] = now
	}
}

// wakeUp ends the loop's sleep: at once, or after the round under way.
func (s *server) wakeUp() {
	select {
	case s.wake <- struct{}{}:
	default: // a wake-up is already pending
	}
}

// due are the projects whose interval has passed (new ones are due at
// once), and those asked to run now (runNow).
func (s *server) due(ps []project.Project, now time.Time) []project.Project {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []project.Project
	for _, p := range ps {
		_, asked := s.requested[p.Name]
		if asked || !now.Before(s.next[p.Name]) {
			out = append(out, p)
		}
	}
	return out
}

// scheduleNext sets when p is due again: its interval after start. A
// request to run it now made before its run began is done; one made
// since stands.
func (s *server) scheduleNext(p project.Project, start time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.next[p.Name] = start.Add(s.o.interval(p))
	if at, ok := s.requested[p.Name]; ok && !at.After(start) {
		delete(s.requested, p.Name)
	}
}

// untilNext is how long until the first of ps is due (at least a
// second; the default interval when there is none).
func (s *server) untilNext(ps []project.Project, now time.Time) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	wait := s.o.interval(project.Project{})
	for _, p := range ps {
		if d := s.next[p.Name].Sub(now); d < wait {
			wait = d
		}
	}
	return max(wait, time.Second)
}

// started records when a project's run began (its plan started).
func (s *server) started(name string, at time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.start[name] = at
}

// startOf is when a project's run began; def when unknown.
func (s *server) startOf(name string, def time.Time) time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t, ok := s.start[name]; ok && !t.Before(def) {
		return t
	}
	return def
}
