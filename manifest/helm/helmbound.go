package helm

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime/metrics"
	"time"

	"github.com/kubeplan/kubeplan/manifest"
	"helm.sh/helm/v4/pkg/chart/common"
	chart "helm.sh/helm/v4/pkg/chart/v2"
	"helm.sh/helm/v4/pkg/engine"
)

// maxHelmOutputBytes bounds what one chart may render: its templates'
// output in all, and any value a template function takes or makes.
const maxHelmOutputBytes = 64 << 20

// defaultHelmTimeout bounds how long one chart may take to render when
// Options.Timeout is not set.
const defaultHelmTimeout = 60 * time.Second

// helmHeapGrowth is how much the process's heap may grow while a chart
// renders (beyond twice its size at the start, which the garbage collector
// allows itself) before the render is abandoned: output a template writes
// with its own text (a range or a branching include) passes no function
// kubeplan can bound, so the heap is watched as well.
const helmHeapGrowth = 16 * maxHelmOutputBytes

// renderBounded renders ch with helm's engine within the bounds: output
// and values of at most limit bytes (the template functions that can grow
// a value are replaced by bounded ones, see renderBudget), at most timeout,
// and heap growth of at most growth bytes meanwhile. The engine cannot be
// interrupted, so it runs on a goroutine of its own; at the deadline, or
// past the growth, its result is abandoned with a problem, and its next
// template function call stops it. A bound hit is one problem; err is
// helm's own rendering error.
// extra are template functions of this render (see renderBudget.funcs);
// a deadline that is not zero ends the render before timeout passes (the
// renders of one chart share its time bound).
func renderBounded(path string, ch *chart.Chart, top common.Values, timeout time.Duration, limit, growth int64, extra map[string]any, deadline time.Time) (map[string]string, *manifest.Problem, error) {
	if timeout <= 0 {
		timeout = defaultHelmTimeout
	}
	wait := timeout
	if !deadline.IsZero() {
		wait = time.Until(deadline)
	}
	b := &renderBudget{limit: limit}
	e := engine.Engine{CustomTemplateFuncs: b.funcs(extra)}
	type result struct {
		out map[string]string
		err error
	}
	done := make(chan result, 1) // the goroutine never blocks on it
	go func() {
		defer func() {
			if r := recover(); r != nil { // helm recovers itself; this is for what it misses
				done <- result{err: fmt.Errorf("rendering failed: %v", r)}
			}
		}()
		out, err := e.RenderWithContext(context.Background(), ch, top)
		done <- result{out, err}
	}()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	ceiling := 2*heapBytes() + uint64(growth)
	for {
		select {
		case r := <-done:
			return renderResult(path, r.out, r.err, limit)
		case <-tick.C:
			if heapBytes() > ceiling {
				b.stopped.Store(true)
				return nil, chartBoundProblem(path, fmt.Sprintf("rendering grew memory by more than %s (the bound per chart is %s of output): stopped", mib(growth), mib(limit))), nil
			}
		case <-timer.C:
			b.stopped.Store(true)
			return nil, chartBoundProblem(path, fmt.Sprintf("rendering took longer than %s (the time bound per chart): stopped; a template that loops or recurses without end is the usual cause", timeout)), nil
		}
	}
}

// renderResult checks a finished render's output against the bound.
func renderResult(path string, out map[string]string, err error, limit int64) (map[string]string, *manifest.Problem, error) {
	if err != nil {
		return nil, nil, err
	}
	total := 0
	for _, s := range out {
		total += len(s)
	}
	if int64(total) > limit {
		return nil, chartBoundProblem(path, fmt.Sprintf("the chart renders %d MiB, more than kubeplan's bound of %s per chart", total>>20, mib(limit))), nil
	}
	return out, nil, nil
}

// heapBytes is the memory the heap's objects take now.
func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// chartBoundProblem is a bound the chart at path hit, at its Chart.yaml.
func chartBoundProblem(path, msg string) *manifest.Problem {
	return &manifest.Problem{File: filepath.Join(path, "Chart.yaml"), Pos: manifest.Pos{Line: 1, Col: 1}, Rule: "helm-template", Message: msg}
}
