package main

import (
	"github.com/kubeplan/kubeplan/internal/benchkit"

	"fmt"
	"sort"
	"strings"
	"time"
)

var scenarioText = map[string]string{
	scFirst: "first apply into an empty namespace",
	scNoop:  "no-op reconcile (the same apply again)",
	scPrune: "remove 100 ConfigMaps: apply + prune",
}

// markdown renders the result as the docs/benchmarks.md section.
func (r *applyResult) markdown() string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	n := r.Corpus.Info.Spec.objects()

	w("%s\n\n", applySectionTitle)
	w("Command: `make bench-apply` (`go run ./tools/benchplan -mode apply`; add `-doc docs/benchmarks.md` to rewrite this section, `-cpuprofile cpu.out` for a CPU profile of each scenario run in-process).\n\n")
	w("Target (from the issue): on the %s-object corpus, `kubeplan apply` takes at most 0.05× the wall time of `kubectl apply --server-side --force-conflicts --prune --applyset` for a first apply, at most 0.02× with 0 writes for a no-op reconcile, and at most 0.05× to apply and prune after 100 objects left the manifests.\n\n", thousands(n))
	all := r.ok(scFirst) && r.ok(scNoop) && r.ok(scPrune)
	w("**Result: %s** — first apply %.3f× (%s); no-op %.3f×, objects written: %s (%s); apply + prune %.3f×, pruned exactly the 100: kubeplan %s, kubectl %s (%s).\n\n",
		verdict(all), r.ratio(scFirst), verdict(r.ok(scFirst)), r.ratio(scNoop), changedObjects(r.runs(tKubeplan, scNoop)), verdict(r.ok(scNoop)),
		r.ratio(scPrune), yesNo(r.prunedExactly(tKubeplan)), yesNo(r.prunedExactly(tKubectl)), verdict(r.ok(scPrune)))

	w("%s objects, %d runs of each, alternating, each tool in a fresh namespace per run, after one warm-up first apply of each (medians; ratios are medians of per-run ratios):\n\n", thousands(n), len(r.Rounds))
	w("| scenario | kubectl apply | kubeplan apply | kubeplan / kubectl | target | result | raw client-go | raw / kubectl | kubeplan / raw |\n")
	w("|---|---:|---:|---:|---:|---|---:|---:|---:|\n")
	rawText := map[string]string{
		scFirst: fmt.Sprintf("%s (%s applies, %d in flight)", secs(medianWall(r.raw(scFirst))), thousands(n), rawApplyInFlight),
		scNoop:  fmt.Sprintf("%s (LIST)", ms(medianWall(r.raw(scNoop)))),
		scPrune: fmt.Sprintf("%s (LIST + %d DELETEs)", ms(medianWall(r.raw(scPrune))), len(r.Removed)),
	}
	for _, sc := range scenarios {
		name := scenarioText[sc]
		if sc == scFirst {
			name += " (`--wait=false`)"
		}
		target := fmt.Sprintf("≤ %.2f×", applyTargets[sc])
		switch sc {
		case scNoop:
			target += ", 0 writes"
		case scPrune:
			target += ", exactly the 100"
		}
		w("| %s | %s | **%s** | **%.3f×** | %s | %s | %s | %.3f× | %.1f× |\n", name, secs(medianWall(r.samples(tKubectl, sc))), secs(medianWall(r.samples(tKubeplan, sc))),
			r.ratio(sc), target, verdict(r.ok(sc)), rawText[sc], pairedRatio(r.raw(sc), r.samples(tKubectl, sc)), pairedRatio(r.samples(tKubeplan, sc), r.raw(sc)))
	}
	w("| first apply, default `--wait` (until the %d Deployments are Available) | | %s | %.3f× (kubectl does not wait) | | | | | %.1f× |\n\n",
		r.Corpus.Info.Spec.Deployments, secs(medianWall(r.waits())), pairedRatio(r.waits(), r.samples(tKubectl, scFirst)), pairedRatio(r.waits(), r.raw(scFirst)))

	if floor := r.allOrNothing(); len(floor) == len(r.Rounds) && len(floor) > 0 {
		ratio := pairedRatio(r.samples(tKubeplan, scFirst), floor)
		w("**First apply against the all-or-nothing raw floor** (in each run, %s server-side apply dry-runs, then the %s applies, %d in flight each: what an apply that writes nothing unless the whole set is accepted must at least spend): floor %s, kubeplan / floor **%.2f×** (target ≤ %.1f×, issue 33): **%s**.\n\n",
			thousands(n), thousands(n), rawApplyInFlight, secs(medianWall(floor)), ratio, allOrNothingTarget, verdict(ratio <= allOrNothingTarget))
	}
	w("\"raw / kubectl\" is what this machine allows: the ratio a client would reach that did nothing but the scenario's unavoidable requests (create every object; read the set; read it and delete the 100).\n\n")
	w("Cost of each run (medians: CPU is user+sys of the process, cluster CPU that of the testcluster process meanwhile, peak RSS the largest):\n\n")
	w("| scenario | kubectl CPU | kubectl peak RSS | cluster CPU (kubectl) | kubeplan CPU | kubeplan peak RSS | cluster CPU (kubeplan) | raw CPU | cluster CPU (raw) |\n")
	w("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, sc := range scenarios {
		kc, kp, rw := summarize(r.samples(tKubectl, sc)), summarize(r.samples(tKubeplan, sc)), summarize(r.raw(sc))
		w("| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", sc, secs(kc.MedianCPU), mib(kc.PeakRSS), secs(kc.MedianSrv),
			secs(kp.MedianCPU), mib(kp.PeakRSS), secs(kp.MedianSrv), secs(rw.MedianCPU), secs(rw.MedianSrv))
	}
	ws := summarize(r.waits())
	w("| first, `--wait` | | | | %s | %s | %s | | |\n\n", secs(ws.MedianCPU), mib(ws.PeakRSS), secs(ws.MedianSrv))

	r.writeChecks(w)
	r.writeRuns(w)
	r.writeAnatomy(w)
	r.writeWhy(w)
	r.writeSetup(w)
	return b.String()
}

// writeChecks: what each tool reported and what the namespace shows.
func (r *applyResult) writeChecks(w func(string, ...any)) {
	w("What each run did (from the tool's output, and from a LIST of the namespace's ConfigMaps, Services and Deployments before and after: objects whose resourceVersion moved, objects gone):\n\n")
	w("| scenario | kubectl reported | kubectl: changed / gone | kubeplan reported | kubeplan: changed / gone |\n|---|---|---:|---|---:|\n")
	for _, sc := range scenarios {
		kc, kp := r.runs(tKubectl, sc), r.runs(tKubeplan, sc)
		w("| %s | %s | %s | %s | %s |\n", sc, outcomeRange(kc), diffRange(kc), outcomeRange(kp), diffRange(kp))
	}
	w("\n")
	for _, tool := range []string{tKubectl, tKubeplan} {
		for _, run := range r.runs(tool, scNoop) {
			if !run.Diff.unchanged() {
				w("- %s's no-op in `%s` moved the resourceVersion of %d objects (max %d → %d): %s.\n", tool, run.Namespace, len(run.Diff.Changed),
					run.Diff.MaxRVBefore, run.Diff.MaxRVAfter, firstN(run.Diff.Changed, 5))
				break
			}
		}
		for _, run := range r.runs(tool, scPrune) {
			if !run.Diff.prunedExactly(r.Removed) {
				w("- %s's prune in `%s` removed %d objects, not exactly the %d left out: %s.\n", tool, run.Namespace, len(run.Diff.Removed), len(r.Removed), firstN(run.Diff.Removed, 5))
				break
			}
		}
	}
	if r.noWrites(tKubeplan) {
		w("- kubeplan's no-op wrote nothing in its namespace: the largest resourceVersion of its objects (the ApplySet parent's included) was the same before and after, in every run.")
		if a := r.anatomyOf(scNoop); a != nil {
			w(" In-process, `Requests.Writes()` counted %d write requests (%s).", a.Writes, writeClasses(a))
		}
		w("\n")
	}
	w("- The prune scenario applies `%s`, the corpus without %d ConfigMaps (the last of each app, %s, ...); both tools must remove exactly those, and nothing else.\n\n", r.PruneDir, len(r.Removed), r.Removed[0])
}

func (r *applyResult) writeRuns(w func(string, ...any)) {
	w("Every run (wall), in the order they ran:\n\n")
	w("| run | first | kubectl first | kubeplan first | kubectl no-op | kubeplan no-op | kubectl prune | kubeplan prune | kubeplan `--wait` | raw apply | raw LIST | raw DELETEs |\n")
	w("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, rd := range r.Rounds {
		g := func(tool, sc string) string { return secs(rd.Runs[tool][sc].Sample.Wall) }
		w("| %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", rd.N, rd.Order[0], g(tKubectl, scFirst), g(tKubeplan, scFirst),
			g(tKubectl, scNoop), g(tKubeplan, scNoop), g(tKubectl, scPrune), g(tKubeplan, scPrune), secs(rd.KubeplanWait.Sample.Wall),
			secs(rd.RawApply.Wall), ms(rd.RawList.Wall), ms(rd.RawDelete.Wall))
	}
	w("\n")
}

// writeAnatomy: the in-process runs, step by step and request by request.
func (r *applyResult) writeAnatomy(w func(string, ...any)) {
	if len(r.Anatomy) == 0 {
		return
	}
	w("### Where one `kubeplan apply` of %s objects spends its time\n\n", thousands(r.Corpus.Info.Spec.objects()))
	w("The three scenarios run once more in-process in a fresh namespace (`applyInProcess`, as `kubeplan apply --wait=false` does: lint.Check, plan.Make, and only when something is to be written the apply.Reconcile (lock, plan.CheckFresh, apply.Execute, release)), every request timed by class; times from the start of the run.\n\n")
	w("| step |")
	for _, a := range r.Anatomy {
		w(" %s |", a.Scenario)
	}
	w("\n|---|" + strings.Repeat("---:|", len(r.Anatomy)) + "\n")
	for _, name := range []string{stepLint, stepPlan, stepLock, stepFresh, stepExecute, stepRelease} {
		w("| %s |", name)
		for _, a := range r.Anatomy {
			if st := stepOf(a, name); st != nil {
				w(" %s – %s |", ms(st.From), ms(st.To))
			} else {
				w(" – |")
			}
		}
		w("\n")
	}
	w("| in all (kubeplan CPU, cluster CPU) |")
	for _, a := range r.Anatomy {
		w(" %s (%s, %s) |", ms(a.Wall), ms(a.CPU), ms(a.ServerCPU))
	}
	w("\n| apply's result |")
	for _, a := range r.Anatomy {
		w(" %s |", a.Summary)
	}
	w("\n| writes (`Requests.Writes()`) |")
	for _, a := range r.Anatomy {
		w(" %d |", a.Writes)
	}
	w("\n\nRequests by class: count, from – to, summed latency.\n\n")
	w("| request |")
	for _, a := range r.Anatomy {
		w(" %s |", a.Scenario)
	}
	w("\n|---|" + strings.Repeat("---:|", len(r.Anatomy)) + "\n")
	for _, name := range classNames(r.Anatomy) {
		w("| %s |", name)
		for _, a := range r.Anatomy {
			c := classOf(a, name)
			if c == nil {
				w(" |")
				continue
			}
			w(" %d: %s – %s, Σ %s |", c.Count, ms(c.First), ms(c.Last), ms(c.SumLatency))
		}
		w("\n")
	}
	w("\n")
}

// classNames are the request classes of all scenarios, in the order the
// first scenario that has them made them.
func classNames(as []*applyAnatomy) []string {
	first := map[string]time.Duration{}
	for _, a := range as {
		for _, c := range a.Classes {
			if t, ok := first[c.Name]; !ok || c.First < t {
				first[c.Name] = c.First
			}
		}
	}
	var names []string
	for n := range first {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return first[names[i]] < first[names[j]] })
	return names
}

func classOf(a *applyAnatomy, name string) *requestClass {
	for i := range a.Classes {
		if a.Classes[i].Name == name {
			return &a.Classes[i]
		}
	}
	return nil
}

func (r *applyResult) writeSetup(w func(string, ...any)) {
	ci := r.Corpus.Info
	w("Setup:\n\n")
	w("- Corpus: the plan benchmark's, %s in %d files (%.1f MiB), seed %d, `.bench/plan/%s`; for the prune scenario a copy without %d ConfigMaps, `.bench/plan/%s` (removed afterwards).\n",
		ci.Spec.text(), ci.Files, float64(ci.Bytes)/(1<<20), ci.Spec.Seed, r.Corpus.Dir, len(r.Removed), r.PruneDir)
	w("- State: a fresh `bin/testcluster` (kube-apiserver %s, etcd, controllers, simulated node). Run N applies kubectl in namespace `k-N` and kubeplan in `p-N` (created empty, with their default ServiceAccount, beforehand); each scenario runs kubectl then kubeplan in odd runs and the other way round in even runs; every timed run starts when the cluster is quiet (under 5%% of a CPU for a second); after the first applies, every Deployment is Available before the no-ops. Then kubeplan with `--wait` in `w-N` and the raw loop in `r-N`. Each run's namespaces are deleted at its end (median %s for two): testcluster's service range is a /24, too small for more than two copies of the corpus's 100 ClusterIP Services.\n",
		r.ServerVersion, secs(medianDuration(r.Deletes)))
	w("- kubectl (`%s`, the one on PATH; its discovery cache warm after the warm-up): `%s` (field manager `kubectl`; it applies the objects one by one).\n", r.KubectlVersion, r.Commands[tKubectl])
	w("- kubeplan, built from the working tree (`%s`): `%s` (%d requests in flight, its default), and `%s` for the time including the wait.\n",
		r.KubeplanVersion, r.Commands[tKubeplan], planConcurrency, r.Commands["kubeplan-wait"])
	w("- Raw loop, in the benchmark's own process with client-go's dynamic client (no client-side rate limit, a new connection each time, objects decoded and labelled as ApplySet members beforehand): every object as a server-side apply patch (not dry-run) with `force`, field manager `kubeplan`, %d in flight, into `r-N`; then (Deployments Available) one LIST of each of the 3 resources, concurrently (%s objects); then DELETE of the %d ConfigMaps the prune scenario removes, %d in flight.\n",
		rawApplyInFlight, thousands(r.Rounds[len(r.Rounds)-1].RawListed), len(r.Removed), rawApplyInFlight)
	w("- For scale, the issue measured kubectl at 27.7 s (first apply), 27.5 s (no-op) and 43.6 s (apply + prune 100), a client-go loop at 0.76 s for the 1,200 applies and a LIST at 25 ms.\n")
	mc := r.Machine
	w("- Machine: %d CPUs (%s), %s RAM, %s, %s; commit %s; %s.\n", mc.NumCPU, mc.CPUModel, mc.MemTotal, mc.Kernel, mc.GoVersion, mc.Commit, r.When.UTC().Format("2006-01-02 15:04 UTC"))
	if mc.Env != "" {
		w("- Environment: %s.\n", mc.Env)
	}
	w("- Load average (1 min) before/after: %s / %s. The cluster runs on the same %d CPUs as the tools, so the tools and the API server compete.\n", r.LoadBefore, r.LoadAfter, mc.NumCPU)
	w("- Wall time includes process start; CPU is user+sys of the child (of the benchmark process for the raw loop); peak RSS is the child's `rusage.ru_maxrss`; cluster CPU is the testcluster process's user+sys time during the run (`/proc/PID/stat`).\n")
}

func outcomeRange(runs []applyRun) string {
	seen := map[string]bool{}
	var out []string
	for _, run := range runs {
		if s := run.Outcome.Summary; !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return "?"
	}
	return strings.Join(out, "; ")
}

func diffRange(runs []applyRun) string {
	gone := map[int]bool{}
	var g []string
	for _, run := range runs {
		if n := len(run.Diff.Removed); !gone[n] {
			gone[n] = true
			g = append(g, thousands(n))
		}
	}
	return changedObjects(runs) + " / " + strings.Join(g, ", ")
}

func firstN(xs []string, n int) string {
	if len(xs) > n {
		return strings.Join(xs[:n], ", ") + fmt.Sprintf(", ... (%d in all)", len(xs))
	}
	return strings.Join(xs, ", ")
}

func yesNo(ok bool) string {
	if ok {
		return "yes"
	}
	return "no"
}

func medianDuration(ds []time.Duration) time.Duration {
	var xs []float64
	for _, d := range ds {
		xs = append(xs, float64(d))
	}
	return time.Duration(benchkit.Median(xs))
}

func stepOf(a *applyAnatomy, name string) *applyStep {
	for i := range a.Steps {
		if a.Steps[i].Name == name {
			return &a.Steps[i]
		}
	}
	return nil
}
