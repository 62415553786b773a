package main

import (
	"fmt"
	"time"
)

// The targets of the issue: kubeplan apply's wall time over kubectl's.
var applyTargets = map[string]float64{scFirst: 0.05, scNoop: 0.02, scPrune: 0.05}

// samples are one tool's timed runs of a scenario, in round order.
func (r *applyResult) samples(tool, sc string) []sample {
	var out []sample
	for _, rd := range r.Rounds {
		if run, ok := rd.Runs[tool][sc]; ok {
			out = append(out, run.Sample)
		}
	}
	return out
}

func (r *applyResult) runs(tool, sc string) []applyRun {
	var out []applyRun
	for _, rd := range r.Rounds {
		if run, ok := rd.Runs[tool][sc]; ok {
			out = append(out, run)
		}
	}
	return out
}

// ratio is the median of the per-round ratios kubeplan / kubectl.
func (r *applyResult) ratio(sc string) float64 {
	return pairedRatio(r.samples(tKubeplan, sc), r.samples(tKubectl, sc))
}

// raw is the raw client-go baseline of a scenario, per round: the applies
// for a first apply, the LIST for a no-op, the LIST plus the deletes for a
// prune.
func (r *applyResult) raw(sc string) []sample {
	var out []sample
	for _, rd := range r.Rounds {
		switch sc {
		case scFirst:
			out = append(out, rd.RawApply)
		case scNoop:
			out = append(out, rd.RawList)
		case scPrune:
			out = append(out, sample{Wall: rd.RawList.Wall + rd.RawDelete.Wall, CPU: rd.RawList.CPU + rd.RawDelete.CPU,
				ServerCPU: rd.RawList.ServerCPU + rd.RawDelete.ServerCPU})
		}
	}
	return out
}

// allOrNothing is the all-or-nothing raw floor of a first apply, per
// round: every object dry-run, then every object applied (16 in flight
// each), what an apply that writes nothing unless the whole set is
// accepted must at least spend. Rounds measured before it was have none.
func (r *applyResult) allOrNothing() []sample {
	var out []sample
	for _, rd := range r.Rounds {
		if rd.RawDryRun.Wall == 0 {
			continue
		}
		out = append(out, sample{Wall: rd.RawDryRun.Wall + rd.RawApply.Wall, CPU: rd.RawDryRun.CPU + rd.RawApply.CPU,
			ServerCPU: rd.RawDryRun.ServerCPU + rd.RawApply.ServerCPU})
	}
	return out
}

// allOrNothingTarget is issue 33's target for a first apply: at most this
// many times the all-or-nothing raw floor, every safety check kept.
const allOrNothingTarget = 1.2

func (r *applyResult) waits() []sample {
	var out []sample
	for _, rd := range r.Rounds {
		out = append(out, rd.KubeplanWait.Sample)
	}
	return out
}

// noWrites says that kubeplan's no-op changed no object of its namespace in
// any round (no resourceVersion moved, the parent's included).
func (r *applyResult) noWrites(tool string) bool {
	runs := r.runs(tool, scNoop)
	for _, run := range runs {
		if !run.Diff.unchanged() {
			return false
		}
	}
	return len(runs) > 0
}

// prunedExactly says that every prune run removed exactly the ConfigMaps
// left out of the corpus.
func (r *applyResult) prunedExactly(tool string) bool {
	runs := r.runs(tool, scPrune)
	for _, run := range runs {
		if !run.Diff.prunedExactly(r.Removed) || run.Outcome.Pruned != len(r.Removed) {
			return false
		}
	}
	return len(runs) > 0
}

// ok is the verdict of a scenario: the time target, plus 0 writes for the
// no-op and the exact prune for the prune.
func (r *applyResult) ok(sc string) bool {
	ok := len(r.Rounds) > 0 && r.ratio(sc) <= applyTargets[sc]
	switch sc {
	case scNoop:
		ok = ok && r.noWrites(tKubeplan)
	case scPrune:
		ok = ok && r.prunedExactly(tKubeplan) && r.prunedExactly(tKubectl)
	}
	return ok
}

// changedObjects shows how many objects a tool's runs of a scenario changed.
func changedObjects(runs []applyRun) string {
	if len(runs) == 0 {
		return "?"
	}
	lo, hi := len(runs[0].Diff.Changed), len(runs[0].Diff.Changed)
	for _, run := range runs {
		lo, hi = min(lo, len(run.Diff.Changed)), max(hi, len(run.Diff.Changed))
	}
	re := 0
	for _, run := range runs {
		re = max(re, len(run.Diff.Rechecked))
	}
	out := thousands(lo)
	if lo != hi {
		out += " to " + thousands(hi)
	}
	if re > 0 {
		out += fmt.Sprintf(" (and the parent's checked-at time, in %s)", runsWith(runs))
	}
	return out
}

// runsWith says in how many of runs the parent's checked-at time moved.
func runsWith(runs []applyRun) string {
	n := 0
	for _, run := range runs {
		if len(run.Diff.Rechecked) > 0 {
			n++
		}
	}
	return fmt.Sprintf("%d of %d runs", n, len(runs))
}

func medianWall(ss []sample) time.Duration { return summarize(ss).MedianWall }
