package run

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

// Loop runs rounds one after another, sleeping what each returns, and
// returns once ctx ends, after the round under way has finished.
func TestLoop(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var rounds atomic.Int32
	var finished atomic.Bool
	done := make(chan struct{})
	go func() {
		Loop(ctx, func() time.Duration {
			if rounds.Add(1) == 3 {
				cancel() // the loop is stopped during this round ...
				time.Sleep(50 * time.Millisecond)
				finished.Store(true) // ... which still finishes
			}
			return time.Millisecond
		})
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Loop did not return after its context ended")
	}
	if n := rounds.Load(); n != 3 || !finished.Load() {
		t.Errorf("rounds = %d, last finished = %v; want 3 rounds, the last one finished", n, finished.Load())
	}
}

// Loop sleeps what the round returned before the next one.
func TestLoopWaits(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var starts []time.Time
	Loop(ctx, func() time.Duration {
		starts = append(starts, time.Now())
		if len(starts) == 2 {
			cancel()
		}
		return 200 * time.Millisecond
	})
	if len(starts) != 2 || starts[1].Sub(starts[0]) < 200*time.Millisecond {
		t.Errorf("rounds started at %v: want two, 200ms apart", starts)
	}
}
