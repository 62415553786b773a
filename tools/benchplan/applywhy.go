package main

import (
	"fmt"
	"strings"
	"time"
)

// Request classes of classifyApply the analysis reads.
const (
	clDryRun = "PATCH dry-run (server-side apply)"
	clWrite  = "PATCH write (server-side apply)"
	clDelete = "DELETE (prune)"
	clReview = "access reviews (SelfSubjectAccessReview)"
)

// span is how long a class of requests was in flight, first start to last
// end; zero when the run made none.
func (a *applyAnatomy) span(class string) (time.Duration, int) {
	if c := classOf(a, class); c != nil {
		return c.Last - c.First, c.Count
	}
	return 0, 0
}

func (r *applyResult) anatomyOf(sc string) *applyAnatomy {
	for _, a := range r.Anatomy {
		if a.Scenario == sc {
			return a
		}
	}
	return nil
}

func pct(part, whole time.Duration) float64 {
	if whole <= 0 {
		return 0
	}
	return 100 * float64(part) / float64(whole)
}

// writeWhy explains, from the in-process runs and the medians, where the
// time goes against each target.
func (r *applyResult) writeWhy(w func(string, ...any)) {
	first, noop, prune := r.anatomyOf(scFirst), r.anatomyOf(scNoop), r.anatomyOf(scPrune)
	if first == nil || noop == nil || prune == nil || len(r.Rounds) == 0 {
		return
	}
	cpus := r.Machine.NumCPU
	w("Where the time goes against the targets (from the in-process runs above and the medians):\n\n")

	kcFirst := medianWall(r.samples(tKubectl, scFirst))
	rawFirst := summarize(r.raw(scFirst))
	dry, nDry := first.span(clDryRun)
	wr, nWr := first.span(clWrite)
	w("- **First apply**: the target is %s (%.2f × kubectl's %s), but the raw loop alone, which only writes the %s objects, takes %s (%.3f× kubectl): the API server, sharing %d CPUs with the client, is the limit (cluster CPU %s during the raw loop's %s, controllers creating ReplicaSets, Pods and EndpointSlices included). kubeplan spends %s (%.0f%%) on %d dry-runs, all of them creates, which it sends before any write so that a refused object stops the apply before anything changed, then %s (%.0f%%) on the %d writes (the raw loop's median: %s); load + lint, access reviews and LISTs before them take %s.%s Its own CPU is %s.\n",
		secs(time.Duration(applyTargets[scFirst]*float64(kcFirst))), applyTargets[scFirst], secs(kcFirst), thousands(nWr), secs(rawFirst.MedianWall),
		pairedRatio(r.raw(scFirst), r.samples(tKubectl, scFirst)), cpus, secs(rawFirst.MedianSrv), secs(rawFirst.MedianWall),
		ms(dry), pct(dry, first.Wall), nDry, ms(wr), pct(wr, first.Wall), nWr, ms(rawFirst.MedianWall), ms(firstStart(first, clDryRun)), freshText(first), ms(first.CPU))

	kcNoop := medianWall(r.samples(tKubectl, scNoop))
	dry, nDry = noop.span(clDryRun)
	rev, nRev := noop.span(clReview)
	w("- **No-op**: the target is %s (%.2f × kubectl's %s), %s. kubeplan writes nothing in the namespace (`Requests.Writes()` = %d: %s) and makes %s dry-runs (%s): the plan proves from the live objects it LISTs anyway that each one already holds what kubeplan would apply (kubeplan's field set in `managedFields` equals the manifest's fields, and every value matches), and dry-runs only what it cannot prove. Its %s in-process: load, lint and discovery until %s, %s access reviews over %s, the ApplySet's member LISTs and the live LISTs (the raw loop's LIST of the set: %s), %s of cluster CPU.\n",
		secs(time.Duration(applyTargets[scNoop]*float64(kcNoop))), applyTargets[scNoop], secs(kcNoop), map[bool]string{true: "met", false: "missed"}[r.ok(scNoop)],
		noop.Writes, writeClasses(noop), thousands(nDry), ms(dry), ms(noop.Wall), ms(firstStart(noop, clReview)), thousands(nRev), ms(rev),
		ms(medianWall(r.raw(scNoop))), secs(noop.ServerCPU))

	kcPrune := medianWall(r.samples(tKubectl, scPrune))
	dry, nDry = prune.span(clDryRun)
	del, nDel := prune.span(clDelete)
	met := map[bool]string{true: "met", false: "missed"}[r.ok(scPrune)]
	w("- **Apply + prune**: the target is %s (%.2f × kubectl's %s), %s. Of kubeplan's %s in-process, %s dry-runs take %s (the kept objects are proven unchanged as in the no-op) and the %d DELETEs %s.%s\n\n",
		secs(time.Duration(applyTargets[scPrune]*float64(kcPrune))), applyTargets[scPrune], secs(kcPrune), met, ms(prune.Wall), thousands(nDry), ms(dry),
		nDel, ms(del), freshText(prune))
}

// firstStart is when the first request of a class started.
func firstStart(a *applyAnatomy, class string) time.Duration {
	if c := classOf(a, class); c != nil {
		return c.First
	}
	return 0
}

// writeClasses lists the write requests of a run by class.
func writeClasses(a *applyAnatomy) string {
	var parts []string
	for _, c := range a.Classes {
		write := c.Name == clWrite || c.Name == clDelete || c.Name == "ApplySet parent: PATCH" ||
			(strings.HasPrefix(c.Name, "lock: ") && !strings.HasSuffix(c.Name, " GET Lease"))
		if write {
			parts = append(parts, fmt.Sprintf("%d %s", c.Count, c.Name))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// freshText describes plan.CheckFresh's part of a run, "" without one.
func freshText(a *applyAnatomy) string {
	st := stepOf(a, stepFresh)
	if st == nil {
		return ""
	}
	return fmt.Sprintf(" Under the lock, plan.CheckFresh re-reads what the plan saw (a LIST per resource, a GET where there are few): %s (%.0f%%).",
		ms(st.To-st.From), pct(st.To-st.From, a.Wall))
}
