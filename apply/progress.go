package apply

import (
	"sync"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kubeplan/kubeplan/health"
	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/plan"
)

// Progress receives the engine's progress: the phases "writing",
// "pruning" and "waiting", and the objects the health wait still waits for.
// The engine never prints: render.Progress is the view. Calls come from one
// goroutine at a time.
type Progress = health.Reporter

// Phase names passed to Progress.Phase.
const (
	PhaseWriting = "writing"
	PhasePruning = "pruning"
	PhaseWaiting = health.PhaseWaiting
)

// progress returns the Progress to report to: Reporter, else Progress
// (pending objects only), else nil.
func (o Options) progress() Progress {
	return health.ReporterOf(o.Reporter, o.Progress)
}

// phaseCounter counts one phase's steps from many goroutines and reports
// each to p, one call at a time. A nil p, or a nil *phaseCounter, does
// nothing.
type phaseCounter struct {
	mu          sync.Mutex
	p           Progress
	name        string
	done, total int
}

// startPhase reports the start of a phase of total steps (none when total
// is 0).
func startPhase(p Progress, name string, total int) *phaseCounter {
	if p == nil || total == 0 {
		return nil
	}
	p.Phase(name, 0, total)
	return &phaseCounter{p: p, name: name, total: total}
}

// step counts one step done.
func (c *phaseCounter) step() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done >= c.total {
		return
	}
	c.done++
	c.p.Phase(c.name, c.done, c.total)
}

// finish reports the phase as done, even when steps failed.
func (c *phaseCounter) finish() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done < c.total {
		c.done = c.total
		c.p.Phase(c.name, c.done, c.total)
	}
}

// countWrites counts the changes a stage writes.
func countWrites(changes []plan.Change) int {
	n := 0
	for _, ch := range changes {
		if ch.Action != plan.Unchanged {
			n++
		}
	}
	return n
}

// waitOptions are the health wait's options for an apply of keep: the
// objects as written (a ClusterIP Service needs no read) and the ApplySet's
// part-of label to narrow the reads.
func waitOptions(keep []plan.Change, opts Options) health.WaitOptions {
	w := health.WaitOptions{Timeout: opts.Timeout, Progress: opts.Progress, Reporter: opts.Reporter,
		Written:  make(map[plan.Ref]map[string]any, len(keep)),
		FailFast: !opts.NoFailFast, Diagnose: true, SecretValues: plan.SecretValues, Rules: opts.Health}
	labelled := opts.ApplySet != nil
	for _, ch := range keep {
		w.Written[ch.Ref] = ch.Object
		w.Secrets = append(w.Secrets, plan.SecretValues(ch.Object)...)
		if labelled {
			id, _, _ := unstructured.NestedString(ch.Object, "metadata", "labels", applyset.LabelPartOf)
			labelled = id == opts.ApplySet.ID()
		}
	}
	if labelled {
		w.Selector = applyset.MemberSelector(opts.ApplySet.ID())
	}
	return w
}
