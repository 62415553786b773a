package main

import (
	"fmt"
	"maps"
	"strings"

	"github.com/kubeplan/kubeplan/internal/benchkit"
)

// markdown is the section docs/benchmarks.md keeps.
func (r *guardsResult) markdown() string {
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	sp := r.Changed.Info.Spec
	w("%s\n\n", guardsSectionTitle)
	w("Command: `make bench-plan-guards` (`go run ./tools/benchplan -mode guards`; `-runs N` plans of each, `-doc docs/benchmarks.md` rewrites this section). It takes the machine for a few minutes: run it alone.\n\n")
	w("Target (issue 30): a plan of the %s-object corpus judged by the built-in rules and five rules of a team's costs at most %.2f× the same plan with every rule off, in wall time. The plan without rules is the floor: the same cluster reads, dry-runs and diff, nothing judged.\n\n",
		thousands(sp.objects()), targetGuardsRatio)
	ratio := pairedRatio(r.With, r.Without)
	cpu := pairedCPURatio(r.With, r.Without)
	verdict := "PASS"
	switch {
	case !maps.Equal(r.WithPlan.Verdicts, r.Expected):
		verdict = "NOT MEASURED"
	case ratio > targetGuardsRatio:
		verdict = "FAIL"
	}
	w("**%s**: with rules %.3f× the wall time without rules (median of the paired ratios), CPU time %.3f× (median of the paired ratios).\n\n", verdict, ratio, cpu)
	if verdict == "NOT MEASURED" {
		w("The plan with rules got the verdicts %s where the rules give %s: they were not all evaluated, so the ratio measures nothing.\n\n",
			verdictList(r.WithPlan.Verdicts), verdictList(r.Expected))
	}
	changes := r.WithPlan.Outcome.Changed
	w("What each plan judged: %s (every object of the corpus updated, see below), so with rules each of the %d change rules (3 built-in, %d of the team's) is evaluated %s times and each of the 2 plan rules once; verdicts: %s. Without rules: %s, no verdicts.\n\n",
		r.WithPlan.Outcome.Summary, guardsBuiltins-1+guardsUserRules-1, guardsUserRules-1, thousands(changes), verdictList(r.WithPlan.Verdicts), r.WithoutPlan.Outcome.Summary)
	ws, wo := benchkit.Summarize(r.With), benchkit.Summarize(r.Without)
	w("%d runs of each after one warm-up each, alternating, the order swapped every run; medians:\n\n", r.Runs)
	w("| plan | wall | fastest | CPU | peak RSS | cluster CPU |\n|---|---:|---:|---:|---:|---:|\n")
	for _, row := range []struct {
		name string
		s    benchkit.Summary
	}{{"without rules", wo}, {"with rules", ws}} {
		w("| %s | %s | %s | %s | %.0f MiB | %s |\n", row.name, secs(row.s.MedianWall), secs(row.s.MinWall), secs(row.s.MedianCPU),
			float64(row.s.PeakRSS)/1024, secs(row.s.MedianSrv))
	}
	w("\nEvery plan, in order (s): without rules %s; with rules %s.\n\n", walls(r.Without), walls(r.With))
	w("The rules (`.bench/plan/%s/%s/kubeplan.yaml`): the built-ins on, and five that read the object as it will be (`change.after`), as it is (`change.before`), the changed fields (`change.paths`) and the plan's counts, one with a message computed per change:\n\n```yaml\n%s```\n\n",
		guardsConfigDir, withRules, "guards:\n"+strings.SplitN(guardsWithRules, "\nguards:\n", 2)[1])
	w("Without rules (`.bench/plan/%s/%s/kubeplan.yaml`): `guards: {builtin: {protect-pvc: off, protect-namespace: off, protect-crd: off, mass-prune: off}}`.\n\n", guardsConfigDir, withoutRules)
	mc := r.Machine
	w("How it was measured:\n\n")
	w("- Machine: %d CPUs (%s), %s RAM, %s, %s; commit %s; load average %s before, %s after; %s.\n", mc.NumCPU, mc.CPUModel, mc.MemTotal, mc.Kernel, mc.GoVersion,
		mc.Commit, r.LoadBefore, r.LoadAfter, r.When.UTC().Format("2006-01-02 15:04 UTC"))
	w("- Corpus: the plan benchmark's, `.bench/plan/%s` (%s), applied into namespace `%s` as the seed does (`kubectl apply --server-side --applyset`). Both plans read its changed copy `.bench/plan/%s`, the next release of every app: each object gains the label `%s: %q`, each Deployment goes to %d replicas and to the next major version of its image, so every object is an update and each Deployment's changed paths include `spec.replicas`.\n",
		r.Base.Dir, sp.text(), r.Base.Namespace, r.Changed.Dir, guardsVersionLabel, guardsVersion, guardsReplicas)
	w("- Plans: `%s` and `%s`.\n", r.Commands[withoutRules], r.Commands[withRules])
	w("- Cluster: a fresh `bin/testcluster` (kube-apiserver %s); `bin/kubeplan version`: %s.\n", orUnknown(r.Versions["server"]), orUnknown(r.Versions["kubeplan"]))
	return b.String()
}
