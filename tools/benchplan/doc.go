// Command benchplan benchmarks `kubeplan plan` against `kubectl diff
// --server-side` on the same cluster state, and against what a plain
// client-go program must at least spend. It is what `make bench-plan` runs:
//
//	go run ./tools/benchplan [-runs 3] [-dir .bench/plan] [-large=true] [-kubectl-large] [-cpuprofile FILE] [-doc docs/benchmarks.md]
//	go run ./tools/benchplan -mode apply [-runs 3] [-cpuprofile FILE] [-doc docs/benchmarks.md]
//	go run ./tools/benchplan -mode waves [-runs 3] [-doc docs/benchmarks.md]
//	go run ./tools/benchplan -mode guards [-runs 7] [-doc docs/benchmarks.md]
//
// Steps, one file each:
//
//   - corpus.go: two deterministic, seeded corpora of small, realistic
//     objects, one file per app (its ConfigMaps, Deployment and Service):
//     1,000 ConfigMaps + 100 Deployments + 100 Services in
//     .bench/plan/corpus-1200, and 9,000 + 500 + 500 in corpus-10000.
//     They are regenerated only when missing or made from other parameters
//     (recorded beside each, corpus-N.json).
//   - cluster.go: starts bin/testcluster (internal/testing/testkube), creates the
//     namespaces bench and bench10k and applies each corpus the way the seed
//     does: KUBECTL_APPLYSET=true kubectl apply --server-side
//     --field-manager=kubeplan --prune --applyset=configmap/gitops-applyset,
//     then waits for the Deployments and for the cluster to go quiet. The
//     cluster is stopped at the end, on error and on SIGINT/SIGTERM.
//   - measure.go: runs a CLI as a child process (wall, user+sys CPU, peak
//     RSS from rusage) and reads the cluster process's CPU time around it.
//   - raw.go: the baselines, with client-go's dynamic client in this
//     process: a server-side apply dry-run (dryRun=All, force) of every
//     object, 32 in flight, and a LIST of the three resources.
//   - parse.go: objects reported as changed, from kubeplan's JSON summary
//     and from kubectl diff's output (one "diff -u -N" block per object).
//   - anatomy.go: one plan run in-process (lint.Check,
//     plan.Make, the JSON renderer) with every request timed by class, and,
//     with -cpuprofile, a CPU profile of five such runs.
//   - stats.go, report.go, machine.go: medians, paired ratios, the
//     PASS/FAIL verdicts (kubeplan wall <= 0.25x kubectl diff's, 0 objects
//     reported as changed, per-object cost at 10,000 objects <= 2x that at
//     1,200) and the Markdown section written into docs/benchmarks.md with
//     -doc.
//
// With -mode apply (`make bench-apply`) it benchmarks `kubeplan apply`
// against `kubectl apply --server-side --force-conflicts --prune --applyset`
// and a raw client-go loop on the 1,200-object corpus instead:
//
//   - applymain.go: the corpora (applycorpus.go: a copy without 100
//     ConfigMaps), the cluster, the rounds, the report.
//   - applyround.go: each run, kubectl in a fresh namespace k-N and kubeplan
//     (--wait=false) in p-N go through a first apply, a no-op and apply +
//     prune of the copy, alternating (who goes first alternates between
//     runs); then kubeplan with --wait in w-N and the raw loop in r-N
//     (rawapply.go: 1,200 server-side applies 16 in flight, a LIST, 100
//     DELETEs). Namespaces are deleted after each run (the service range is
//     a /24).
//   - applystate.go: LISTs of a namespace before and after each run: which
//     resourceVersions moved (a no-op must move none, the ApplySet parent's
//     included) and which objects went (a prune must remove exactly the 100).
//   - applyparse.go: the tools' own summaries.
//   - applyanatomy.go: the three scenarios once more in-process (lock,
//     load + lint, plan.Make, apply.Execute, release) with every request
//     timed by class; -cpuprofile FILE writes one profile per scenario.
//   - applystats.go, applyreport.go: medians, paired ratios, the verdicts
//     (first apply <= 0.05x kubectl's wall, no-op <= 0.02x with 0 writes,
//     apply + prune <= 0.05x with exactly the 100 pruned) and the Markdown
//     section written into docs/benchmarks.md with -doc.
//
// With -mode waves (`make bench-plan-waves`) it measures what issue 29's
// stages cost:
//
//   - wavescorpus.go: copies of the 1,200-object corpus with every object
//     of app i annotated argocd.argoproj.io/sync-wave "i mod N", N = 2..5.
//   - waves.go: on a testcluster with its audit log on, both the plain
//     corpus and the 5-wave copy applied as the seed does, then kubeplan
//     plan of each, alternating (target: the waved plan <= 1.05x); then a
//     first apply of each waved copy into a fresh namespace, and for each
//     boundary between waves the time from the wave's last Deployment
//     seen rolled out to kubeplan's first write of the next wave (target
//     <= 1 s), and the Markdown section written with -doc.
//   - wavesaudit.go: reading the audit log, and the watch that sees each
//     Deployment roll out.
//
// With -mode guards (`make bench-plan-guards`) it measures what issue 30's
// guard rules cost:
//
//   - guardscorpus.go: a copy of the 1,200-object corpus in which every
//     object changes (a version label; Deployments to 2 replicas and the
//     next image), and two kubeplan.yaml files: every built-in rule off, and
//     the built-ins on plus five rules of a team's.
//   - guards.go, guardsreport.go: the corpus applied as the seed does, then
//     kubeplan plan of the copy with each config, alternating (target: with
//     rules <= 1.05x without, wall time; CPU time reported too), refused
//     unless both plans update every object and the rules give exactly the
//     verdicts expected; the Markdown section written with -doc.
//
// In plan mode, each round runs kubectl diff, kubeplan plan, kubectl diff
// --field-manager=kubeplan, the raw dry-run loop and the raw LIST, after one
// untimed warm-up round, so that load from other processes hits all alike;
// ratios are medians of per-round ratios.
package main
