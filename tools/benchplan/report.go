package main

import (
	"github.com/kubeplan/kubeplan/internal/benchkit"

	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// sectionTitle is the heading of the section -doc rewrites.
const sectionTitle = "## plan: kubeplan vs kubectl diff --server-side"

// The two corpora of the issue.
var (
	smallSpec = spec{ConfigMaps: 1000, Deployments: 100, Services: 100, Generator: generatorVersion}
	largeSpec = spec{ConfigMaps: 9000, Deployments: 500, Services: 500, Generator: generatorVersion}
)

// corpusSet is one corpus as applied to the cluster.
type corpusSet struct {
	Dir        string // relative to the benchmark directory
	Namespace  string
	Info       *corpusInfo
	ApplyTime  time.Duration
	ApplySetID string
}

// result is everything one benchmark run found.
type result struct {
	When                  time.Time
	Machine               benchkit.Machine
	LoadBefore, LoadAfter string
	Runs                  int
	Small, Large          corpusSet
	KubeplanVersion       string
	KubectlVersion        string
	ServerVersion         string
	Commands              map[string]string
	Samples               map[string][]sample
	Outcomes              map[string][]outcome
	RawListed             int
	Anatomy               *anatomy
	LargeKP, LargeRaw     []sample
	LargeOutcomes         []outcome
	LargeKubectl          *sample
	LargeKubectlOutcome   *outcome
	LargeErr              string
}

// changedRange shows the objects a tool reported as changed over its runs.
func changedRange(ocs []outcome) string {
	if len(ocs) == 0 {
		return "?"
	}
	lo, hi := ocs[0].Changed, ocs[0].Changed
	for _, o := range ocs {
		lo, hi = min(lo, o.Changed), max(hi, o.Changed)
	}
	if lo == hi {
		return fmt.Sprint(lo)
	}
	return fmt.Sprintf("%d to %d", lo, hi)
}

func maxChanged(ocs []outcome) int {
	n := 0
	for _, o := range ocs {
		n = max(n, o.Changed)
	}
	return n
}

// verdicts of the three targets.
func (r *result) wallRatio() float64 { return pairedRatio(r.Samples[kKubeplan], r.Samples[kKubectl]) }

func (r *result) perObjectRatio() float64 {
	if len(r.LargeKP) == 0 {
		return 0
	}
	small := summarize(r.Samples[kKubeplan]).MedianWall.Seconds() / float64(r.Small.Info.Spec.objects())
	large := summarize(r.LargeKP).MedianWall.Seconds() / float64(r.Large.Info.Spec.objects())
	return benchkit.Div(large, small)
}

func (r *result) kubeplanClean() bool {
	return len(r.Outcomes[kKubeplan]) > 0 && maxChanged(r.Outcomes[kKubeplan]) == 0 && maxChanged(r.LargeOutcomes) == 0
}

// markdown renders the result as the docs/benchmarks.md section.
func (r *result) markdown() string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	n := r.Small.Info.Spec.objects()
	wallOK := r.wallRatio() <= targetWallRatio
	cleanOK := r.kubeplanClean()
	perObj := r.perObjectRatio()
	perObjOK := len(r.LargeKP) > 0 && perObj <= targetPerObjectRatio

	w("%s\n\n", sectionTitle)
	w("Command: `make bench-plan` (`go run ./tools/benchplan`; add `-doc docs/benchmarks.md` to rewrite this section).\n\n")
	w("Target (from the issue): on a testcluster holding %s applied as an ApplySet, `kubeplan plan` takes at most %.2f× the wall time of `kubectl diff --server-side` on the same state and reports 0 objects as changed; planning %s costs at most %.0f× as much per object.\n\n",
		r.Small.Info.Spec.text(), targetWallRatio, largeSpec.textOr(), targetPerObjectRatio)
	perObjText := "not run"
	if len(r.LargeKP) > 0 {
		perObjText = fmt.Sprintf("%.2f× (%s)", perObj, verdict(perObjOK))
	}
	w("**Result: %s** — wall %.2f× kubectl diff (%s); objects reported as changed: %s (%s); per-object cost at %s objects: %s.\n\n",
		verdict(wallOK && cleanOK && perObjOK), r.wallRatio(), verdict(wallOK), changedRange(r.Outcomes[kKubeplan]), verdict(cleanOK),
		thousands(largeSpec.objects()), perObjText)

	kd, kp, kdm := summarize(r.Samples[kKubectl]), summarize(r.Samples[kKubeplan]), summarize(r.Samples[kKubectlFM])
	rd, rl := summarize(r.Samples[kRawDry]), summarize(r.Samples[kRawList])
	w("%s objects, %d runs of each, alternating, after one warm-up of each:\n\n", thousands(n), r.Runs)
	w("| | median wall | min wall | CPU (user+sys) | peak RSS | cluster CPU | objects reported as changed | kubeplan / this (wall) |\n")
	w("|---|---:|---:|---:|---:|---:|---:|---:|\n")
	w("| `kubectl diff --server-side` | %s | %s | %s | %s | %s | %s | **%.2f×** |\n", secs(kd.MedianWall), secs(kd.MinWall), secs(kd.MedianCPU), mib(kd.PeakRSS), secs(kd.MedianSrv),
		changedRange(r.Outcomes[kKubectl]), r.wallRatio())
	w("| `kubectl diff --server-side --field-manager=kubeplan` | %s | %s | %s | %s | %s | %s | %.2f× |\n", secs(kdm.MedianWall), secs(kdm.MinWall), secs(kdm.MedianCPU), mib(kdm.PeakRSS), secs(kdm.MedianSrv),
		changedRange(r.Outcomes[kKubectlFM]), pairedRatio(r.Samples[kKubeplan], r.Samples[kKubectlFM]))
	w("| **`kubeplan plan`** | **%s** | %s | %s | %s | %s | **%s** | |\n", secs(kp.MedianWall), secs(kp.MinWall), secs(kp.MedianCPU), mib(kp.PeakRSS), secs(kp.MedianSrv),
		changedRange(r.Outcomes[kKubeplan]))
	w("| raw client-go dry-run loop (%d in flight) | %s | %s | %s | | %s | | %.2f× |\n", rawInFlight, secs(rd.MedianWall), secs(rd.MinWall), secs(rd.MedianCPU), secs(rd.MedianSrv),
		pairedRatio(r.Samples[kKubeplan], r.Samples[kRawDry]))
	w("| raw client-go LIST of the 3 resources | %s | %s | %s | | %s | | %.1f× |\n\n", ms(rl.MedianWall), ms(rl.MinWall), ms(rl.MedianCPU), ms(rl.MedianSrv),
		pairedRatio(r.Samples[kKubeplan], r.Samples[kRawList]))

	w("Every run (wall), in the order they ran:\n\n")
	w("| run | kubectl diff | kubeplan plan | kubectl diff --field-manager=kubeplan | raw dry-run | raw LIST | kubeplan / kubectl diff |\n|---:|---:|---:|---:|---:|---:|---:|\n")
	for i := range r.Samples[kKubeplan] {
		g := func(k string) sample { return r.Samples[k][i] }
		w("| %d | %s | %s | %s | %s | %s | %.2f× |\n", i+1, secs(g(kKubectl).Wall), secs(g(kKubeplan).Wall), secs(g(kKubectlFM).Wall), secs(g(kRawDry).Wall), ms(g(kRawList).Wall),
			benchkit.Div(float64(g(kKubeplan).Wall), float64(g(kKubectl).Wall)))
	}
	w("\n")

	w("What each reported:\n\n")
	last := func(k string) outcome { ocs := r.Outcomes[k]; return ocs[len(ocs)-1] }
	w("- kubeplan: %s (`summary` of `-o json`).\n", last(kKubeplan).Summary)
	w("- `kubectl diff --server-side` (kubectl's own field manager, `kubectl`): %s.\n", last(kKubectl).Summary)
	w("- `kubectl diff --server-side --field-manager=kubeplan` (the manager that applied the set): %s.", last(kKubectlFM).Summary)
	if ex := last(kKubectlFM).Example; ex != "" {
		w(" For example:\n\n```diff\n%s\n```\n", trimDiff(ex, 14))
	} else {
		w("\n")
	}
	w("\n")
	if fm := last(kKubectlFM); fm.Changed > 0 && fm.LabelOnly == fm.Changed {
		w("kubectl diff dry-runs each object without the `%s` label that `kubectl apply --applyset` added. ", applySetLabel)
		if last(kKubectl).Changed == 0 {
			w("With kubectl's own field manager the label stays (the `kubeplan` manager still owns it), so nothing differs; ")
		}
		w("with the field manager that applied the set, the dry-run drops the label, so %s of %s objects are reported although nothing would change. kubeplan sends the label, as its apply would, and reports %s.\n\n", thousands(fm.Changed), thousands(n), changedRange(r.Outcomes[kKubeplan]))
	}

	if r.LargeErr != "" {
		w("The %s-object run failed: `%s`\n\n", thousands(largeSpec.objects()), benchkit.FirstLines(r.LargeErr, 1))
	}
	if len(r.LargeKP) > 0 {
		lk, lr := summarize(r.LargeKP), summarize(r.LargeRaw)
		nl := r.Large.Info.Spec.objects()
		w("Scale: the %s-object corpus (%s) in namespace `%s`, %d runs of kubeplan alternating with the raw dry-run loop, after one warm-up:\n\n", thousands(nl), r.Large.Info.Spec.text(), r.Large.Namespace, len(r.LargeKP))
		w("| | objects | kubeplan median wall | per object | raw dry-run loop | per object | kubeplan / raw | objects reported as changed |\n|---|---:|---:|---:|---:|---:|---:|---:|\n")
		w("| small | %s | %s | %s | %s | %s | %.2f× | %s |\n", thousands(n), secs(kp.MedianWall), us(kp.MedianWall, n), secs(rd.MedianWall), us(rd.MedianWall, n),
			pairedRatio(r.Samples[kKubeplan], r.Samples[kRawDry]), changedRange(r.Outcomes[kKubeplan]))
		w("| large | %s | %s | %s | %s | %s | %.2f× | %s |\n", thousands(nl), secs(lk.MedianWall), us(lk.MedianWall, nl), secs(lr.MedianWall), us(lr.MedianWall, nl),
			pairedRatio(r.LargeKP, r.LargeRaw), changedRange(r.LargeOutcomes))
		w("| large / small, per object | | | **%.2f×** | | %.2f× | | |\n\n", perObj,
			benchkit.Div(lr.MedianWall.Seconds()/float64(nl), rd.MedianWall.Seconds()/float64(n)))
		w("kubeplan at %s objects: CPU %s, peak RSS %s, cluster CPU %s (median).", thousands(nl), secs(lk.MedianCPU), mib(lk.PeakRSS), secs(lk.MedianSrv))
		if r.LargeKubectl != nil {
			w(" One `kubectl diff --server-side` of it: %s wall, %s.", secs(r.LargeKubectl.Wall), r.LargeKubectlOutcome.Summary)
		}
		w("\n\n")
	}

	if a := r.Anatomy; a != nil {
		w("### Where one `kubeplan plan` of %s objects spends its time\n\n", thousands(n))
		w("The same plan run in-process (`planInProcess`: lint.Check, plan.Make, the JSON renderer), every request timed by class; times from the start of plan.Make. %s\n\n", a.Summary)
		w("| step | requests | from | to | summed latency |\n|---|---:|---:|---:|---:|\n")
		w("| load + lint the files | | | %s before | |\n", ms(a.LoadLint))
		for _, c := range a.Classes {
			w("| %s | %d | %s | %s | %s |\n", c.Name, c.Count, ms(c.First), ms(c.Last), ms(c.SumLatency))
		}
		w("| plan.Make in all | | 0 ms | %s | |\n", ms(a.Make))
		w("| render JSON | | | %s after | |\n\n", ms(a.Render))
		w("In all %s wall, %s CPU in kubeplan, %s CPU in the cluster.\n\n", ms(a.LoadLint+a.Make+a.Render), ms(a.CPU), ms(a.ServerCPU))
	}

	w("Setup:\n\n")
	w("- Corpus: %s in %d files (%.1f MiB; one file per app: its ConfigMaps, Deployment and Service), seed %d, generated into `.bench/plan/%s`; ConfigMaps %s, Deployments %s, Services %s on average.\n",
		r.Small.Info.Spec.text(), r.Small.Info.Files, float64(r.Small.Info.Bytes)/(1<<20), r.Small.Info.Spec.Seed, r.Small.Dir,
		kib(r.Small.Info, "ConfigMap"), kib(r.Small.Info, "Deployment"), kib(r.Small.Info, "Service"))
	w("- Resource quantities are written in canonical form. With `cpu: 1000m` or `memory: 1024Mi` (stored as `1` and `1Gi`), `kubectl diff --server-side` under its own field manager gets a field conflict for those Deployments, retries as if the object kept changing (\"keeps changing, diffing without lock\") and exits 2.\n")
	w("- State: a fresh `bin/testcluster` (kube-apiserver %s, etcd, controllers, simulated node); namespace `%s`; the corpus applied as the seed does, `KUBECTL_APPLYSET=true kubectl %s` (%s), then waited for every Deployment to be Available and the cluster to go quiet.\n",
		r.ServerVersion, r.Small.Namespace, strings.Join(seedApplyArgs(r.Small.Namespace, r.Small.Dir), " "), secs(r.Small.ApplyTime))
	if r.Large.Info != nil {
		w("- Large corpus: `.bench/plan/%s` (%d files, %.1f MiB) in namespace `%s`, applied the same way after the small runs (%s). Its Services beyond the first %d are headless (`clusterIP: None`): testcluster's service range is a /24.\n",
			r.Large.Dir, r.Large.Info.Files, float64(r.Large.Info.Bytes)/(1<<20), r.Large.Namespace, secs(r.Large.ApplyTime), clusterIPServices)
	}
	w("- kubeplan, built from the working tree (`%s`): `%s` (16 requests in flight, its default; exit 0; kubeplan refuses a set kubectl made unless `--adopt`).\n", r.KubeplanVersion, r.Commands[kKubeplan])
	w("- kubectl (`%s`, the one on PATH; its discovery cache warm after the warm-up): `%s` and `%s` (exit 1 when anything differs).\n", r.KubectlVersion, r.Commands[kKubectl], r.Commands[kKubectlFM])
	w("- Raw loops, in the benchmark's own process with client-go's dynamic client (no client-side rate limit, a new connection each run, objects decoded and labelled as ApplySet members beforehand): every object as a server-side apply patch with `dryRun=All`, `force`, field manager `kubeplan`, %d in flight; and one LIST of each of the 3 resources, concurrently (%s objects listed, including the ApplySet parent and `kube-root-ca.crt`).\n",
		rawInFlight, thousands(r.RawListed))
	mc := r.Machine
	w("- Machine: %d CPUs (%s), %s RAM, %s, %s; commit %s; %s.\n", mc.NumCPU, mc.CPUModel, mc.MemTotal, mc.Kernel, mc.GoVersion, mc.Commit, r.When.UTC().Format("2006-01-02 15:04 UTC"))
	if mc.Env != "" {
		w("- Environment: %s.\n", mc.Env)
	}
	w("- Load average (1 min) before/after: %s / %s. The cluster runs on the same %d CPUs as the tools, so the tools and the API server compete; \"cluster CPU\" is the user+sys time of the testcluster process during the run (from `/proc/PID/stat`).\n",
		r.LoadBefore, r.LoadAfter, mc.NumCPU)
	w("- Wall time includes process start; CPU is user+sys of the child (of the benchmark process for the raw loops); peak RSS is the child's `rusage.ru_maxrss`.\n")
	return b.String()
}

func (s spec) text() string {
	return fmt.Sprintf("%s ConfigMaps + %s Deployments + %s Services", thousands(s.ConfigMaps), thousands(s.Deployments), thousands(s.Services))
}

func (s spec) textOr() string {
	return thousands(s.objects()) + " objects (" + s.text() + ")"
}

func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func kib(ci *corpusInfo, kind string) string {
	var n int
	switch kind {
	case "ConfigMap":
		n = ci.Spec.ConfigMaps
	case "Deployment":
		n = ci.Spec.Deployments
	case "Service":
		n = ci.Spec.Services
	}
	if n == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f KiB", float64(ci.Sizes[kind])/float64(n)/1024)
}

// trimDiff keeps the first n lines of a diff, without temporary paths.
func trimDiff(d string, n int) string {
	lines := strings.Split(strings.TrimRight(d, "\n"), "\n")
	if len(lines) > n {
		lines = append(lines[:n], "...")
	}
	for i, l := range lines {
		if f := strings.Fields(l); len(f) >= 2 && (f[0] == "---" || f[0] == "+++") {
			lines[i] = f[0] + " " + filepath.Base(filepath.Dir(f[1])) + "/" + filepath.Base(f[1])
		}
	}
	return strings.Join(lines, "\n")
}

func verdict(ok bool) string {
	if ok {
		return "PASS"
	}
	return "FAIL"
}

func secs(d time.Duration) string { return fmt.Sprintf("%.2f s", d.Seconds()) }
func ms(d time.Duration) string   { return fmt.Sprintf("%.0f ms", float64(d)/float64(time.Millisecond)) }
func mib(kib int64) string        { return fmt.Sprintf("%.0f MiB", float64(kib)/1024) }
func us(d time.Duration, n int) string {
	return fmt.Sprintf("%.0f µs", float64(d)/float64(time.Microsecond)/float64(n))
}
