package interrupt

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"syscall"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for the watcher's goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A real SIGTERM cancels the context with the signal as its cause; no
// write starts after it; the run's end is reported once with what it said;
// and Grace later the process would exit 1, saying nothing was written.
func TestSignalStopsTheRun(t *testing.T) {
	var errw syncBuffer
	exited := make(chan int, 1)
	s := New(&errw)
	s.exit = func(code int) { exited <- code }
	if err := s.Writing(context.Background(), func() error { return nil }); err != nil {
		t.Fatal(err)
	}
	s.wrote = false // the write above came before Watch: count only the run's
	ctx := s.Watch(context.Background())
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("SIGTERM did not cancel the context")
	}
	var ie Error
	if !errors.As(context.Cause(ctx), &ie) || ie.Signal != syscall.SIGTERM || ie.Error() != "interrupted by SIGTERM" {
		t.Fatalf("cause %v", context.Cause(ctx))
	}
	ran := false
	if err := s.Writing(ctx, func() error { ran = true; return nil }); !errors.As(err, &ie) || ran {
		t.Errorf("a write after the signal: ran %v, err %v", ran, err)
	}
	if !s.Stopped(errors.New("loading manifests: boom"), false) {
		t.Fatal("Stopped says no signal came")
	}
	select {
	case code := <-exited:
		if code != 1 {
			t.Errorf("exit %d, want 1", code)
		}
	case <-time.After(Grace + 5*time.Second):
		t.Fatal("no exit after the grace")
	}
	want := "kubeplan: interrupted by SIGTERM: loading manifests: boom; stopped (nothing was written)\n" +
		"kubeplan: interrupted by SIGTERM; stopped (nothing was written)\n"
	if got := errw.String(); got != want {
		t.Errorf("stderr %q, want %q", got, want)
	}
}

// Without a signal, a nil Stopper (in-process tests) and a watching one
// write and report nothing.
func TestNoSignal(t *testing.T) {
	var nilStopper *Stopper
	ran := false
	if err := nilStopper.Writing(context.Background(), func() error { ran = true; return nil }); err != nil || !ran {
		t.Errorf("nil Stopper: ran %v, err %v", ran, err)
	}
	if nilStopper.Signal() != nil || nilStopper.Stopped(errors.New("x"), false) {
		t.Error("a nil Stopper saw a signal")
	}
	var errw syncBuffer
	s := New(&errw)
	if s.Stopped(errors.New("exit 2"), true) || errw.String() != "" {
		t.Errorf("no signal came, yet: %q", errw.String())
	}
}
