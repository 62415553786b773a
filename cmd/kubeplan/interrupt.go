package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"
)

// interruptGrace is how long a run has, after SIGINT or SIGTERM, to return
// by itself once its context is cancelled: loading, linting and policy
// evaluation stop between files, documents and evaluations, requests at
// once. A phase that does not watch the context (a kustomize build, a
// chart's render) is cut when it runs out, so that every phase ends within
// 2 s of the signal, with exit 1.
const interruptGrace = time.Second

// interrupted is the cause of the run's context after a signal.
type interrupted struct{ sig os.Signal }

func (e interrupted) Error() string { return "interrupted by " + signalName(e.sig) }

func signalName(sig os.Signal) string {
	if sig == syscall.SIGTERM {
		return "SIGTERM"
	}
	return "SIGINT"
}

// interrupter stops the process on SIGINT or SIGTERM for the verbs that
// ask (stopOnSignal): lint, plan, policy test, status. apply and serve
// keep their own handling: a write under way is never cut there.
// main makes one; tests that call Main in-process have none, and their
// signals are the test binary's.
type interrupter struct {
	errw io.Writer
	exit func(int)
	// mu is held by a write (writing); the stop after the grace waits for
	// it, and no write starts once the context is done.
	mu    sync.Mutex
	sig   os.Signal // the signal received, under mu
	wrote bool      // a write ran, under mu
}

func newInterrupter(errw io.Writer) *interrupter {
	return &interrupter{errw: errw, exit: os.Exit}
}

// stopOnSignal returns the verb's context, cancelled by the first SIGINT or
// SIGTERM; the command's context (what loading and lint read) becomes it.
// If the verb has not returned interruptGrace later, or at a second signal,
// the process exits 1. Without an interrupter it is cmd's context.
func (s streams) stopOnSignal(cmd *cobra.Command) context.Context {
	if s.sig == nil {
		return cmd.Context()
	}
	ctx := s.sig.watch(cmd.Context())
	cmd.SetContext(ctx)
	return ctx
}

func (i *interrupter) watch(parent context.Context) context.Context {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig := <-ch
		i.mu.Lock()
		i.sig = sig
		i.mu.Unlock()
		cancel(interrupted{sig})
		t := time.NewTimer(interruptGrace)
		select {
		case <-t.C:
		case <-ch:
		}
		i.mu.Lock() // a write under way finishes first
		fmt.Fprintf(i.errw, "kubeplan: interrupted by %s; stopped%s\n", signalName(sig), i.nothingWritten())
		i.exit(exitFailed)
	}()
	return ctx
}

// writing runs write, an output of the verb (a plan file, a comment, the
// report), unless ctx is done: an interrupted run writes nothing, and a
// write under way when the signal comes is finished, not cut half way.
func (s streams) writing(ctx context.Context, write func() error) error {
	if s.sig != nil {
		s.sig.mu.Lock()
		defer s.sig.mu.Unlock()
	}
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	if s.sig != nil {
		s.sig.wrote = true
	}
	return write()
}

// nothingWritten says so when no write ran; called under mu.
func (i *interrupter) nothingWritten() string {
	if i.wrote {
		return ""
	}
	return " (nothing was written)"
}

// interruptedBy is the signal that interrupted the run, nil if none did.
func (s streams) interruptedBy() os.Signal {
	if s.sig == nil {
		return nil
	}
	s.sig.mu.Lock()
	defer s.sig.mu.Unlock()
	return s.sig.sig
}

// interruptExit reports a run a signal interrupted, whatever it would
// have said, on stderr and exits 1; ok is false when no signal came.
func (s streams) interruptExit(err error) (code int, ok bool) {
	sig := s.interruptedBy()
	if sig == nil {
		return 0, false
	}
	msg := err.Error()
	if errors.As(err, new(exitError)) {
		msg = interrupted{sig}.Error()
	} else if !strings.Contains(msg, "interrupted by") {
		msg = interrupted{sig}.Error() + ": " + msg
	}
	s.sig.mu.Lock()
	fmt.Fprintf(s.err, "kubeplan: %s; stopped%s\n", msg, s.sig.nothingWritten())
	s.sig.mu.Unlock()
	return exitFailed, true
}
