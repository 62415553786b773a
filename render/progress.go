package render

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/health"
)

// pendingNames names the first max objects, with why, and counts the rest.
func pendingNames(pending []health.Result, max int) string {
	var parts []string
	for i, r := range pending {
		if i == max {
			parts = append(parts, fmt.Sprintf("and %d more", len(pending)-max))
			break
		}
		msg := r.Ref.String()
		if r.Message != "" {
			msg += " (" + r.Message + ")"
		}
		parts = append(parts, msg)
	}
	return strings.Join(parts, ", ")
}

// Progress timing: a phase shows nothing until it has lasted progressAfter;
// then, off a terminal, a line when the count changed and progressEvery
// passed since the last line, or progressQuiet passed anyway.
const (
	progressAfter = 2 * time.Second
	progressEvery = 5 * time.Second
	progressQuiet = 10 * time.Second
)

// ProgressView shows the engine's progress (apply.Progress, and plan's
// through Planning) on w, stderr: a bar per phase on a terminal, periodic
// lines elsewhere. Phases shorter than 2 s show nothing. It prints only
// when called: it has no goroutine.
type ProgressView struct {
	w        io.Writer
	terminal bool
	now      func() time.Time

	mu          sync.Mutex
	phase       string
	start       time.Time
	done, total int
	pending     []health.Result
	shown       bool // the phase printed something
	lastLine    time.Time
	lastDone    int
	bar         *progressbar.ProgressBar
}

var _ apply.Progress = (*ProgressView)(nil)

// Progress returns the view of the engine's progress on w; terminal says w
// is a terminal (a bar) rather than a log (lines). A nil w shows nothing.
func Progress(w io.Writer, terminal bool) *ProgressView {
	return newProgress(w, terminal, time.Now)
}

func newProgress(w io.Writer, terminal bool, now func() time.Time) *ProgressView {
	if w == nil {
		w = io.Discard
	}
	return &ProgressView{w: w, terminal: terminal, now: now}
}

// Planning reports plan's progress: done of total objects planned (the
// callback for plan's options).
func (v *ProgressView) Planning(done, total int) { v.Phase("planning", done, total) }

// Phase shows that done of total steps of phase name are done; done ==
// total ends it.
func (v *ProgressView) Phase(name string, done, total int) {
	if total <= 0 {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	now := v.now()
	if name != v.phase {
		v.end()
		v.phase, v.start, v.pending, v.shown, v.lastDone = name, now, nil, false, -1
	}
	v.done, v.total = done, total
	v.update(now)
	if done >= total {
		v.end()
		v.phase = ""
	}
}

// Pending names the objects the health wait still waits for: the bar
// shows them at once, the next line names them.
func (v *ProgressView) Pending(pending []health.Result) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.pending = pending
	if v.phase != "" && v.terminal {
		v.update(v.now())
	}
}

// Close ends a phase left open (a run that failed midway).
func (v *ProgressView) Close() {
	if v == nil {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	v.end()
	v.phase = ""
}

// update shows the phase's state if it is due.
func (v *ProgressView) update(now time.Time) {
	if now.Sub(v.start) < progressAfter {
		return
	}
	if v.terminal {
		v.showBar()
		return
	}
	changed := v.done != v.lastDone
	since := now.Sub(v.lastLine)
	if !v.shown || (changed && since >= progressEvery) || since >= progressQuiet {
		v.line(now)
	}
}

// end finishes the phase's output: the full bar, or a last line.
func (v *ProgressView) end() {
	if !v.shown {
		return
	}
	if v.bar != nil {
		v.showBar()
		fmt.Fprintln(v.w)
		v.bar = nil
	} else if v.done != v.lastDone {
		v.line(v.now())
	}
	v.shown = false
}

func (v *ProgressView) line(now time.Time) {
	s := fmt.Sprintf("%s %d/%d", v.phase, v.done, v.total)
	if len(v.pending) > 0 && v.done < v.total {
		s += ": " + pendingNames(v.pending, 3)
	}
	fmt.Fprintln(v.w, s)
	v.shown, v.lastLine, v.lastDone = true, now, v.done
}

func (v *ProgressView) showBar() {
	if v.bar == nil {
		v.bar = progressbar.NewOptions(v.total, progressbar.OptionSetWriter(v.w),
			progressbar.OptionSetWidth(30), progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(false), progressbar.OptionSetElapsedTime(false))
		v.shown = true
	}
	desc := v.phase
	if len(v.pending) > 0 && v.done < v.total {
		desc += " " + truncate(pendingNames(v.pending, 1), 60)
	}
	v.bar.Describe(desc)
	_ = v.bar.Set(v.done)
	v.lastDone = v.done
}

func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
