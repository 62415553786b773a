package startgc

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// startLimit is the memory (as GOMEMLIMIT counts it) a run may reach
// before its first collection: far above what a pre-commit lint of a few
// files allocates, far below the budget of a large plan.
const startLimit = 32 << 20

// started is closed when the collector is back on after init's hold (nil
// when GOGC or GOMEMLIMIT is set).
var started <-chan struct{}

func init() {
	if os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" {
		started = hold(startLimit)
	}
}

// sentinel is an object nothing keeps: the first collection frees it, and
// its cleanup turns the collector back on. It holds a pointer so that it
// is allocated alone (the runtime batches small pointer-free objects, and
// the cleanup of a batched one may never run).
type sentinel struct{ _ *byte }

// settings are the collector's settings to go back to, and the channel to
// close when they are.
type settings struct {
	gogc  int
	limit int64
	held  int64 // the limit hold set
	done  chan struct{}
}

// hold turns the collector off until the runtime's memory reaches limit,
// and back on, with the settings it had, after the first collection; the
// channel it returns is closed then.
func hold(limit int64) <-chan struct{} {
	prev := settings{gogc: debug.SetGCPercent(-1), limit: debug.SetMemoryLimit(limit), held: limit, done: make(chan struct{})}
	runtime.AddCleanup(new(sentinel), restore, prev)
	return prev.done
}

// restore puts the collector's settings back, unless the program set its
// own since hold (serve does, internal/gctune): those are kept.
func restore(s settings) {
	now := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"}}
	metrics.Read(now)
	if int64(now[0].Value.Uint64()) == -1 && int64(now[1].Value.Uint64()) == s.held {
		debug.SetGCPercent(s.gogc)
		debug.SetMemoryLimit(s.limit)
	}
	close(s.done)
}
