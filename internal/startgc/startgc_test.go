package startgc

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

// read returns the runtime metrics named.
func read(names ...string) []uint64 {
	s := make([]metrics.Sample, len(names))
	for i, n := range names {
		s[i].Name = n
	}
	metrics.Read(s)
	out := make([]uint64, len(s))
	for i := range s {
		out[i] = s[i].Value.Uint64()
	}
	return out
}

const (
	cycles = "/gc/cycles/total:gc-cycles"
	total  = "/memory/classes/total:bytes"
)

// gcSettings reads GOGC and the memory limit without changing them.
func gcSettings() (int64, int64) {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64()), int64(s[1].Value.Uint64())
}

// wait waits for ch to close, at most 10 s.
func wait(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: the collector was not turned back on", what)
	}
}

// own sets known collector settings for a test, after init's hold is
// over, and puts the process's back after it.
func own(t *testing.T) {
	if started != nil {
		runtime.GC()
		wait(t, started, "init's hold")
	}
	gogc, limit := debug.SetGCPercent(150), debug.SetMemoryLimit(1<<40)
	t.Cleanup(func() { debug.SetGCPercent(gogc); debug.SetMemoryLimit(limit) })
}

var sink [][]byte

// While held, allocating far below the limit collects nothing; the first
// collection puts the settings back.
func TestHoldCollectsNothingBelowTheLimit(t *testing.T) {
	own(t)
	want := int64(read(total)[0]) + 256<<20
	done := hold(want)
	if gogc, limit := gcSettings(); gogc != -1 || limit != want {
		t.Fatalf("held: GOGC %d, memory limit %d; want off and %d", gogc, limit, want)
	}
	before := read(cycles)[0]
	for range 256 { // 16 MiB of garbage, four times the collector's first goal
		sink = append(sink[:0], make([]byte, 64<<10))
	}
	if n := read(cycles)[0] - before; n != 0 {
		t.Fatalf("%d collections while held under the limit", n)
	}
	runtime.GC()
	wait(t, done, "after runtime.GC")
	if gogc, limit := gcSettings(); gogc != 150 || limit != 1<<40 {
		t.Errorf("after the hold: GOGC %d, memory limit %d; want 150 and %d", gogc, limit, int64(1<<40))
	}
}

// Reaching the limit starts the collection that ends the hold.
func TestHoldEndsAtTheLimit(t *testing.T) {
	own(t)
	done := hold(int64(read(total)[0]) + 8<<20)
	for i := 0; ; i++ {
		sink = append(sink[:0], make([]byte, 256<<10))
		select {
		case <-done:
			if gogc, limit := gcSettings(); gogc != 150 || limit != 1<<40 {
				t.Errorf("after the hold: GOGC %d, memory limit %d; want 150 and %d", gogc, limit, int64(1<<40))
			}
			return
		default:
		}
		if i > 4000 { // 1 GiB allocated: the limit never started a collection
			t.Fatal("the hold did not end at its limit")
		}
		time.Sleep(time.Microsecond) // let the cleanup goroutine run
	}
}

// Settings the program makes while the hold lasts (serve's GOGC and soft
// limit) are kept when it ends.
func TestHoldKeepsSettingsMadeMeanwhile(t *testing.T) {
	own(t)
	done := hold(int64(read(total)[0]) + 256<<20)
	debug.SetGCPercent(50)
	debug.SetMemoryLimit(3 << 30)
	runtime.GC()
	wait(t, done, "after runtime.GC")
	if gogc, limit := gcSettings(); gogc != 50 || limit != 3<<30 {
		t.Errorf("after the hold: GOGC %d, memory limit %d; want serve's 50 and %d", gogc, limit, int64(3<<30))
	}
}

// Raise moves the hold's limit up, only while the hold lasts with its own
// limit; the settings come back as before after the first collection.
func TestRaise(t *testing.T) {
	own(t)
	base := int64(read(total)[0])
	done := hold(base + 64<<20)
	Raise(base + 32<<20) // lower: ignored
	if _, limit := gcSettings(); limit != base+64<<20 {
		t.Fatalf("a lower Raise moved the limit to %d", limit)
	}
	Raise(base + 512<<20)
	if gogc, limit := gcSettings(); gogc != -1 || limit != base+512<<20 {
		t.Fatalf("raised: GOGC %d, limit %d; want off and %d", gogc, limit, base+512<<20)
	}
	before := read(cycles)[0]
	for range 1024 { // 64 MiB of garbage: above the first limit, below the raised one
		sink = append(sink[:0], make([]byte, 64<<10))
	}
	if n := read(cycles)[0] - before; n != 0 {
		t.Fatalf("%d collections under the raised limit", n)
	}
	runtime.GC()
	wait(t, done, "after runtime.GC")
	if gogc, limit := gcSettings(); gogc != 150 || limit != 1<<40 {
		t.Errorf("after the hold: GOGC %d, limit %d; want 150 and %d", gogc, limit, int64(1<<40))
	}
	Raise(base + 1<<30) // the hold is over: nothing moves
	if _, limit := gcSettings(); limit != 1<<40 {
		t.Errorf("Raise after the hold set the limit to %d", limit)
	}
}

// serve sets GOGC but no limit when its container has none: the hold's
// limit must not stay behind.
func TestHoldDropsItsLimitWhenOnlyGOGCWasSet(t *testing.T) {
	own(t)
	done := hold(int64(read(total)[0]) + 256<<20)
	debug.SetGCPercent(50)
	runtime.GC()
	wait(t, done, "after runtime.GC")
	if gogc, limit := gcSettings(); gogc != 50 || limit != 1<<40 {
		t.Errorf("after the hold: GOGC %d, limit %d; want serve's 50 and the process's %d", gogc, limit, int64(1<<40))
	}
}
