package startgc

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
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
	held  int64 // the limit the hold set (Raise moves it)
	done  chan struct{}
}

var (
	mu     sync.Mutex
	active *settings // the hold, while it lasts
)

// hold turns the collector off until the runtime's memory reaches limit,
// and back on, with the settings it had, after the first collection; the
// channel it returns is closed then.
func hold(limit int64) <-chan struct{} {
	s := &settings{gogc: debug.SetGCPercent(-1), limit: debug.SetMemoryLimit(limit), held: limit, done: make(chan struct{})}
	mu.Lock()
	active = s
	mu.Unlock()
	runtime.AddCleanup(new(sentinel), restore, s)
	return s.done
}

// restore puts the collector's settings back, except those the program
// set since hold (serve sets its GOGC and soft limit, internal/gctune):
// GOGC if it is still off, the limit if it is still the hold's.
func restore(s *settings) {
	mu.Lock()
	defer mu.Unlock()
	if active == s {
		active = nil
	}
	now := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"}}
	metrics.Read(now)
	if int64(now[0].Value.Uint64()) == -1 {
		debug.SetGCPercent(s.gogc)
	}
	if int64(now[1].Value.Uint64()) == s.held {
		debug.SetMemoryLimit(s.limit)
	}
	close(s.done)
}

// Raise lets a command that is bound to use more memory than a lint (a
// plan or an apply, which hold the live objects too) go up to limit before
// its first collection, when the hold still lasts with its own limit and
// limit is above it. Measured on a one-project plan (make bench-projects'
// --changed-since): two collections under the start limit cost 10 ms of
// its 65 ms and saved no memory.
func Raise(limit int64) {
	mu.Lock()
	defer mu.Unlock()
	if active == nil || limit <= active.held || debug.SetMemoryLimit(-1) != active.held {
		return
	}
	debug.SetMemoryLimit(limit)
	active.held = limit
}

// ClusterLimit is what the commands that read a cluster raise the hold to.
const ClusterLimit = 64 << 20
