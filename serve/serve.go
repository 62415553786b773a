package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/project"
)

// shutdownTimeout bounds the HTTP server's shutdown.
const shutdownTimeout = 10 * time.Second

// server is one kubeplan serve process.
type server struct {
	o     Options
	src   *fetcher
	cache objectCache
	cls   *clusters
	m     *metrics
	ev    *events
	h     *health
	log   io.Writer

	// failed is set when a run of the round failed: the next round
	// forgets what the clients memoized (RBAC rules, discovery).
	failed atomic.Bool
	// pushed is set by an accepted push webhook: the next round runs the
	// projects changed since each one's last applied revision.
	pushed   atomic.Bool
	srcState sourceState

	// yields counts the fields runs keep taking back (yield.go).
	yields *yieldWatch

	mu    sync.Mutex
	next  map[string]time.Time // project -> when it is due
	start map[string]time.Time // project -> when its run began (this round)
	// requested are the projects asked to run now (runNow), by when they
	// were asked: due at the next round whatever their interval.
	requested map[string]time.Time
	// wake ends the loop's sleep (runNow); one pending wake-up stands for
	// any number of requests.
	wake chan struct{}
	// applied is each project's revision of its last successful run, or
	// a later commit at which its files are the same (changedProjects).
	applied map[string]string
	// marked are the projects whose parents record the failing source.
	marked []project.Project
	// syncs are the sync requests seen on the parents (syncrequests.go).
	syncs syncRequests
}

// Run reconciles until ctx ends, then finishes the runs under way, starts
// no other, shuts the HTTP server down and returns nil. ready, when not
// nil, is told the HTTP server's address once it listens. The error is
// for a server that could not start (a bad address) or failed.
func Run(ctx context.Context, o Options, ready func(addr fmt.Stringer)) error {
	s, err := newServer(o)
	if err != nil {
		return err
	}
	errs := make(chan error, 1)
	var srvStop func()
	if o.Listen != "" {
		srv := newHTTPServer(s.m, s.h)
		addr, err := listen(srv, o.Listen, errs)
		if err != nil {
			return fmt.Errorf("--listen %s: %w", o.Listen, err)
		}
		srvStop = func() {
			sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
			defer cancel()
			_ = srv.Shutdown(sctx)
		}
		if ready != nil {
			ready(addr)
		}
	}
	if o.WebhookListen != "" {
		srv := newWebhookServer(s.webhooks())
		addr, err := listen(srv, o.WebhookListen, errs)
		if err != nil {
			if srvStop != nil {
				srvStop()
			}
			return fmt.Errorf("--webhook-addr %s: %w", o.WebhookListen, err)
		}
		httpStop := srvStop
		srvStop = func() {
			sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
			defer cancel()
			_ = srv.Shutdown(sctx)
			if httpStop != nil {
				httpStop()
			}
		}
		if o.WebhookReady != nil {
			o.WebhookReady(addr)
		}
	}
	loopCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go func() {
		select {
		case err := <-errs:
			cancel(err)
		case <-loopCtx.Done():
		}
	}()
	defer s.startSyncPoll(loopCtx)() // syncrequests.go
	s.loop(loopCtx)
	if srvStop != nil {
		srvStop()
	}
	if err := context.Cause(loopCtx); err != nil && !errors.Is(err, context.Canceled) && ctx.Err() == nil {
		return err // serving ADDR: ...
	}
	return nil
}

func newServer(o Options) (*server, error) {
	if o.Connect == nil {
		return nil, errors.New("serve: Options.Connect is required")
	}
	if o.Source.URL == "" {
		return nil, errors.New("serve: no git source (--source)")
	}
	if o.WebhookListen != "" {
		if o.WebhookSecretFile == "" {
			return nil, errors.New("--webhook-addr needs --webhook-secret-file: the file holding the webhooks' shared secret")
		}
		if _, err := readSecret(o.WebhookSecretFile); err != nil {
			return nil, err
		}
	}
	if o.Concurrency <= 0 {
		o.Concurrency = DefaultConcurrency
	}
	if o.Apply.Timeout <= 0 {
		o.Apply.Timeout = DefaultTimeout
	}
	// A no-op run writes nothing, not even the parent's checked-at time:
	// kubeplan_last_run_timestamp_seconds says when serve last checked.
	o.Apply.CheckedEvery = -1
	if o.Holder == "" {
		o.Holder = apply.DefaultLockHolder()
	}
	log := o.Log
	if log == nil {
		log = io.Discard
	}
	cls := newClusters(o.Connect)
	return &server{
		o:     o,
		src:   &fetcher{git: o.Source, overrides: o.Overrides, log: log},
		cls:   cls,
		m:     newMetrics(cls),
		ev:    newEvents(o.Holder),
		h:     &health{cls: cls},
		log:   log,
		next:  map[string]time.Time{},
		start: map[string]time.Time{},

		requested: map[string]time.Time{},
		wake:      make(chan struct{}, 1),
		applied:   map[string]string{},
		yields:    newYieldWatch(),
	}, nil
}

// logf writes one line of the process's log.
func (s *server) logf(format string, args ...any) {
	fmt.Fprintf(s.log, "%s kubeplan serve: %s\n", time.Now().UTC().Format(time.RFC3339), fmt.Sprintf(format, args...))
}
