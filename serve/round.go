package serve

import (
	"context"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/run"
	"github.com/kubeplan/kubeplan/source"
)

// fetchTimeout bounds a round's git fetch.
const fetchTimeout = 2 * time.Minute

// round fetches the source once and runs the projects that are due. It
// returns how long to sleep before the next round. Once ctx ends no
// further project starts; the runs under way finish (their writes are
// never interrupted).
func (s *server) round(ctx context.Context) time.Duration {
	start := time.Now()
	// A push that comes during the fetch is the next round's.
	pushed := s.pushed.Swap(false)
	fctx, cancel := context.WithTimeout(ctx, fetchTimeout)
	co, err := s.src.fetch(fctx)
	cancel()
	if err != nil {
		if pushed {
			s.pushed.Store(true)
		}
		if ctx.Err() == nil {
			// Nothing runs: nothing is applied or pruned from a source
			// that cannot be read.
			s.sourceFailed(ctx, err)
		}
		return min(retryAfterFetchError, s.o.interval(project.Project{}))
	}
	s.h.fetched.Store(true)
	s.sourceOK(ctx)
	all, _ := co.ws.Projects() // loaded when the workspace was opened
	ps, err := selected(co.ws.Root(), all, s.o.Projects)
	if err != nil {
		s.logf("%v", err)
	}
	if pushed {
		names := s.changedProjects(ctx, co, ps)
		changed := strings.Join(names, ", ")
		if changed == "" {
			changed = "none to run"
		}
		s.logf("push: at %s, %d of %d projects changed: %s", short(co.rev.SHA), len(names), len(ps), changed)
		s.request(names, start) // this round runs them
	}
	due := s.skipSuspended(ctx, co, s.due(ps, start), start) // suspend.go
	if len(due) > 0 && ctx.Err() == nil {
		s.cls.newRound(s.failed.Swap(false))
		s.runProjects(ctx, co, due, true, start)
		s.m.observeRound(time.Since(start))
		// Between rounds the process holds only its caches: give what the
		// round allocated back to the OS (one GC per round).
		debug.FreeOSMemory()
	}
	return s.untilNext(ps, time.Now())
}

// runProjects runs ps through run.Apply, each project planned and
// applied in one step, and reports each run as it ends. In a scheduled
// run, those another replica had locked are waited for and run again,
// once: a run again that finds the lock taken anew reports it.
func (s *server) runProjects(ctx context.Context, co checkout, ps []project.Project, scheduled bool, start time.Time) {
	runCtx := context.WithoutCancel(ctx)
	var locked []run.ProjectReport
	o := s.options(ctx, co)
	o.Observer = &roundObserver{s: s, done: func(pr run.ProjectReport) { // called one at a time
		if pr.Status == run.Skipped && ctx.Err() != nil {
			return // stopped before it started: not a run
		}
		s.scheduleNext(pr.Project, start)
		if scheduled && lockedBy(pr) {
			locked = append(locked, pr)
			return
		}
		s.report(runCtx, pr, co.rev, scheduled, start)
	}}
	if _, err := run.Apply(runCtx, ps, o); err != nil { // a dependsOn cycle: nothing ran
		s.logf("%v", err)
		for _, p := range ps {
			s.scheduleNext(p, start)
		}
		return
	}
	if len(locked) > 0 {
		s.retryLocked(ctx, co, locked, start)
	}
}

// retryLocked waits for each locked project's Lease (at most its
// interval) and runs the freed ones again; one still locked is reported
// as failed with the LockedError.
func (s *server) retryLocked(ctx context.Context, co checkout, locked []run.ProjectReport, start time.Time) {
	var mu sync.Mutex
	var freed []project.Project
	var wg sync.WaitGroup
	for _, pr := range locked {
		wg.Go(func() {
			s.logf("%s: %v; waiting", pr.Project.Name, pr.Err)
			if s.waitUnlocked(ctx, pr, start.Add(s.o.interval(pr.Project))) && ctx.Err() == nil {
				s.logf("%s: the lock is free; running it again", pr.Project.Name)
				mu.Lock()
				freed = append(freed, pr.Project)
				mu.Unlock()
				return
			}
			if ctx.Err() == nil {
				s.report(context.WithoutCancel(ctx), pr, co.rev, true, start)
			}
		})
	}
	wg.Wait()
	if len(freed) > 0 {
		s.runProjects(ctx, co, freed, false, time.Now())
	}
}

// options are run's options for one round at checkout co.
func (s *server) options(ctx context.Context, co checkout) run.ApplyOptions {
	cached := s.cache.at(co.rev.SHA)
	o := run.ApplyOptions{
		Options: run.Options{
			Workspace:  co.ws,
			Connect:    s.cls.Connector,
			Plan:       s.o.Plan,
			PerCluster: s.o.Concurrency,
			Halt:       ctx.Done(),
			Lookup:     true, // charts' lookups read the cluster, as helm upgrade does
			Objects:    cached,
		},
		Apply:  s.o.Apply,
		Stream: true,
	}
	o.Apply.Stop = ctx.Done() // SIGTERM ends health waits; writes finish
	// serve never approves: what awaits approval is held back when that
	// is safe (prunes), else the project is refused and reported.
	o.Apply.Withhold = true
	o.Plan.Revision = co.rev.SHA
	return o
}

// roundObserver watches a round's run: when each project starts, and
// each project's end (done).
type roundObserver struct {
	run.Quiet
	s    *server
	done func(run.ProjectReport)
}

// Started notes when p's run began (its duration's start).
func (o *roundObserver) Started(p project.Project) { o.s.started(p.Name, time.Now()) }

// ProjectDone reports p's run.
func (o *roundObserver) ProjectDone(pr run.ProjectReport) { o.done(pr) }

// report records one project's run: metrics, the Event, the log line,
// OnRun.
func (s *server) report(ctx context.Context, pr run.ProjectReport, rev source.Revision, scheduled bool, roundStart time.Time) {
	res := resultOf(pr, rev.SHA, rev.Subject, scheduled, s.startOf(pr.Project.Name, roundStart), time.Now())
	s.m.observe(res)
	if res.Err != nil {
		s.failed.Store(true)
	} else if res.WindowClosed == "" {
		s.appliedAt(res.Project, res.Revision)
	}
	s.answerSync(ctx, pr, res) // syncrequests.go
	switch {
	case res.Suspended != "":
		s.logf("%s: suspended %s; skipped, nothing written", res.Project, res.Suspended)
	case res.Err != nil:
		s.logf("%s at %s failed: %v", res.Project, short(res.Revision), res.Err)
	case res.Wrote():
		s.logf("%s at %s: %d applied, %d pruned, %d unchanged", res.Project, short(res.Revision), res.Applied, res.Pruned, res.Unchanged)
	}
	if c, _, err := s.cls.Connector(pr.Project); err == nil {
		ectx, cancel := context.WithTimeout(ctx, 30*time.Second)
		if err := s.ev.record(ectx, c, res); err != nil {
			s.logf("%s: %v", res.Project, err)
		}
		s.suggestYield(ectx, c, pr, &res)
		cancel()
	}
	if s.o.OnRun != nil {
		s.o.OnRun(ctx, res)
	}
}
