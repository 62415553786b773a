package interrupt

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Grace is how long a run has, after SIGINT or SIGTERM, to return by
// itself once its context is cancelled: loading, linting and policy
// evaluation stop between files, documents and evaluations, requests at
// once. A phase that does not watch the context (a kustomize build, a
// chart's render) is cut when it runs out, so that every phase ends within
// 2 s of the signal, with exit 1.
const Grace = time.Second

// Error is the cause of the run's context after a signal.
type Error struct{ Signal os.Signal }

func (e Error) Error() string { return "interrupted by " + signalName(e.Signal) }

func signalName(sig os.Signal) string {
	if sig == syscall.SIGTERM {
		return "SIGTERM"
	}
	return "SIGINT"
}

// Stopper stops the process on SIGINT or SIGTERM for the verbs that ask
// (Watch). A nil *Stopper watches nothing: tests that run kubeplan
// in-process have none, and their signals are the test binary's.
type Stopper struct {
	errw io.Writer
	exit func(int)
	// mu is held by a write (Writing); the stop after the grace waits for
	// it, and no write starts once the context is done.
	mu    sync.Mutex
	sig   os.Signal // the signal received, under mu
	wrote bool      // a write ran, under mu
}

// New returns a Stopper that reports on errw and exits the process.
func New(errw io.Writer) *Stopper {
	return &Stopper{errw: errw, exit: os.Exit}
}

// Watch returns a context cancelled by the first SIGINT or SIGTERM (its
// cause an Error). If the verb has not returned Grace later, or at a
// second signal, the process exits 1 once a write under way is done.
func (i *Stopper) Watch(parent context.Context) context.Context {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig := <-ch
		i.mu.Lock()
		i.sig = sig
		i.mu.Unlock()
		cancel(Error{sig})
		t := time.NewTimer(Grace)
		select {
		case <-t.C:
		case <-ch:
		}
		i.mu.Lock() // a write under way finishes first
		fmt.Fprintf(i.errw, "kubeplan: interrupted by %s; stopped%s\n", signalName(sig), i.nothingWritten())
		i.exit(1)
	}()
	return ctx
}

// Writing runs write, an output of the verb (a plan file, a comment, the
// report), unless ctx is done: an interrupted run writes nothing, and a
// write under way when the signal comes is finished, not cut half way.
func (i *Stopper) Writing(ctx context.Context, write func() error) error {
	if i != nil {
		i.mu.Lock()
		defer i.mu.Unlock()
	}
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	if i != nil {
		i.wrote = true
	}
	return write()
}

// nothingWritten says so when no write ran; called under mu.
func (i *Stopper) nothingWritten() string {
	if i.wrote {
		return ""
	}
	return " (nothing was written)"
}

// Signal is the signal that interrupted the run, nil if none did.
func (i *Stopper) Signal() os.Signal {
	if i == nil {
		return nil
	}
	i.mu.Lock()
	defer i.mu.Unlock()
	return i.sig
}

// Stopped reports on the Stopper's writer that a signal interrupted the
// run, whatever err, the run's end, says (quiet: err carries only an exit
// code, and is not shown), and returns true; without a signal it reports
// nothing and returns false.
func (i *Stopper) Stopped(err error, quiet bool) bool {
	sig := i.Signal()
	if sig == nil {
		return false
	}
	msg := err.Error()
	if quiet {
		msg = Error{sig}.Error()
	} else if !strings.Contains(msg, "interrupted by") {
		msg = Error{sig}.Error() + ": " + msg
	}
	i.mu.Lock()
	fmt.Fprintf(i.errw, "kubeplan: %s; stopped%s\n", msg, i.nothingWritten())
	i.mu.Unlock()
	return true
}
