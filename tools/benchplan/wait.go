package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/kubeplan/kubeplan/internal/benchkit"
)

// waitSectionTitle is the heading of the section -mode wait -doc rewrites.
const waitSectionTitle = "## apply --wait on a healthy set: before and after fail fast"

// defaultBaseline is the commit before issue 28 made apply fail fast and
// diagnose: "today" for the question "is a healthy apply slower now?".
const defaultBaseline = "0aae431"

// The variants of -mode wait, each a first apply with --wait of the
// 1,200-object corpus into a fresh namespace.
const (
	wBaseline   = "baseline"     // kubeplan built from -baseline
	wFailFast   = "fail-fast"    // this tree's kubeplan, its default --fail-fast
	wNoFailFast = "no-fail-fast" // this tree's kubeplan --fail-fast=false
)

var waitVariants = []string{wBaseline, wFailFast, wNoFailFast}

// waitResult is what one -mode wait run found.
type waitResult struct {
	When                  time.Time
	Machine               benchkit.Machine
	LoadBefore, LoadAfter string
	Runs                  int
	Corpus                corpusSet
	Baseline              string // the commit the baseline binary was built from
	Versions              map[string]string
	Commands              map[string]string
	Samples               map[string][]sample
}

// runWaitBench is -mode wait: a healthy first apply with --wait, by
// kubeplan as built from -baseline and by this tree's kubeplan with and
// without --fail-fast, each run in a fresh namespace that is deleted
// after it, the order rotating every round.
func runWaitBench(o options, root string) error {
	res := &waitResult{When: time.Now(), Machine: benchkit.DescribeMachine(root), Runs: o.runs, Baseline: o.baseline,
		Versions: map[string]string{}, Commands: map[string]string{}, Samples: map[string][]sample{}}
	s := smallSpec
	s.Seed = o.seed
	res.Corpus.Dir = fmt.Sprintf("corpus-%d", s.objects())
	info, _, err := ensureCorpus(filepath.Join(o.dir, res.Corpus.Dir), s)
	if err != nil {
		return fmt.Errorf("generating the corpus: %w", err)
	}
	res.Corpus.Info = info
	baseBin := filepath.Join(root, "bin", "kubeplan-"+o.baseline)
	step("building %s from commit %s", benchkit.Rel(root, baseBin), o.baseline)
	if err := buildAt(root, o.baseline, baseBin); err != nil {
		return err
	}
	bb, err := startBench(root, nil)
	if err != nil {
		return err
	}
	c := bb.cluster
	defer c.Stop()
	res.Versions[wBaseline] = benchkit.ToolVersion(baseBin, "version")
	res.Versions[wFailFast] = bb.kubeplanVersion
	res.Versions["server"] = bb.serverVersion
	tools := map[string]tool{}
	for _, v := range waitVariants {
		bin, args := bb.kubeplan, []string{"apply", "-n", "NS", "--applyset", applySetFlag, "--timeout", "5m"}
		switch v {
		case wBaseline:
			bin = baseBin
		case wNoFailFast:
			args = append(args, "--fail-fast=false")
		}
		tools[v] = tool{Name: "kubeplan apply (" + v + ")", Bin: bin, Dir: o.dir, OKCodes: []int{0},
			Args: append(args, "--kubeconfig", c.AdminKubeconfig(), res.Corpus.Dir)}
		res.Commands[v] = shown(tools[v], c)
	}
	res.LoadBefore = benchkit.LoadAverage()
	for n := 0; n <= o.runs; n++ {
		order := append(waitVariants[n%3:], waitVariants[:n%3]...)
		for _, v := range order {
			ns := fmt.Sprintf("wait-%s-%d", v, n)
			s, err := waitRun(c, tools[v], ns, info.Spec.Deployments)
			if err != nil {
				return fmt.Errorf("%s, run %d: %w", v, n, err)
			}
			step("run %d, %s: %s", n, v, secs(s.Wall))
			if n > 0 { // run 0 warms up
				res.Samples[v] = append(res.Samples[v], s)
			}
		}
	}
	res.LoadAfter = benchkit.LoadAverage()
	return benchkit.Publish(root, o.doc, waitSectionTitle, res.markdown(), step)
}

// waitRun applies the corpus with t into a fresh namespace ns, checks
// that every Deployment is Available when it returns (the wait waited),
// and deletes the namespace.
func waitRun(c *cluster, t tool, ns string, deployments int) (sample, error) {
	if err := c.createNamespaces(ns); err != nil {
		return sample{}, err
	}
	t.Args = append([]string(nil), t.Args...)
	for i, a := range t.Args {
		if a == "NS" {
			t.Args[i] = ns
		}
	}
	c.settle()
	s, out, err := t.Run(c.PID())
	if err != nil {
		return s, fmt.Errorf("%w\n%s", err, benchkit.FirstLines(string(out), 20))
	}
	avail, err := c.kubectl(nil, "-n", ns, "get", "deployments", "-o",
		`jsonpath={range .items[*]}{.status.conditions[?(@.type=="Available")].status}{"\n"}{end}`)
	if err != nil {
		return s, err
	}
	if got := strings.Count(avail, "True"); got != deployments {
		return s, fmt.Errorf("%s returned with %d of %d Deployments Available: it did not wait", t.Name, got, deployments)
	}
	if _, err := c.deleteNamespaces(ns); err != nil {
		return s, err
	}
	return s, nil
}

// buildAt builds cmd/kubeplan as it was at commit rev into out, from a
// git archive of the commit in a temporary directory (the work tree is
// not touched).
func buildAt(root, rev, out string) error {
	dir, err := os.MkdirTemp("", "kubeplan-baseline-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	archive := exec.Command("sh", "-c", "git archive --format=tar "+rev+" | tar -x -C "+dir)
	archive.Dir = root
	if b, err := archive.CombinedOutput(); err != nil {
		return fmt.Errorf("git archive %s: %w\n%s", rev, err, b)
	}
	if err := goBuild(dir, out); err != nil {
		return fmt.Errorf("commit %s: %w", rev, err)
	}
	return nil
}

// markdown is the section docs/benchmarks.md keeps.
func (r *waitResult) markdown() string {
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	w("%s\n\n", waitSectionTitle)
	w("Command: `make bench-apply-wait` (`go run ./tools/benchplan -mode wait`; `-baseline REV` names the commit to compare with, `-doc docs/benchmarks.md` rewrites this section).\n\n")
	w("Target (issue 28): a healthy apply is not slower than before fail fast and the diagnosis: `kubeplan apply --wait` of the %s-object corpus (%d Deployments) takes at most 1.05× the wall time of the same apply by kubeplan built from commit %s. The wall time includes the cluster starting %d pods, so on a loaded machine the CPU time kubeplan itself spends is the steadier measure.\n\n",
		thousands(r.Corpus.Info.Spec.objects()), r.Corpus.Info.Spec.Deployments, r.Baseline, r.Corpus.Info.Spec.Deployments)
	sum := map[string]benchkit.Summary{}
	for _, v := range waitVariants {
		sum[v] = benchkit.Summarize(r.Samples[v])
	}
	ratio := func(v string) float64 {
		return benchkit.Div(float64(sum[v].MedianWall), float64(sum[wBaseline].MedianWall))
	}
	cpuRatio := func(v string) float64 {
		return benchkit.Div(float64(sum[v].MedianCPU), float64(sum[wBaseline].MedianCPU))
	}
	verdict := "PASS"
	if ratio(wFailFast) > 1.05 {
		verdict = "FAIL"
	}
	w("**Result: %s**: with fail fast (the default) %.2f× the baseline's wall time and %.2f× its CPU time; with `--fail-fast=false` %.2f× and %.2f×.\n\n",
		verdict, ratio(wFailFast), cpuRatio(wFailFast), ratio(wNoFailFast), cpuRatio(wNoFailFast))
	w("%d runs of each, after one warm-up run each, the order rotating every run; medians:\n\n", r.Runs)
	w("| kubeplan | wall | / baseline | fastest | CPU | / baseline | peak RSS | cluster CPU |\n|---|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, v := range waitVariants {
		s := sum[v]
		w("| %s | %s | %.2f× | %s | %s | %.2f× | %.0f MiB | %s |\n", v, secs(s.MedianWall), ratio(v), secs(s.MinWall), secs(s.MedianCPU),
			cpuRatio(v), float64(s.PeakRSS)/1024, secs(s.MedianSrv))
	}
	w("\nEvery run, in order:\n\n| variant | wall (s) |\n|---|---|\n")
	for _, v := range waitVariants {
		var ws []string
		for _, s := range r.Samples[v] {
			ws = append(ws, fmt.Sprintf("%.2f", s.Wall.Seconds()))
		}
		w("| %s | %s |\n", v, strings.Join(ws, ", "))
	}
	mc := r.Machine
	w("\nHow it was measured:\n\n")
	w("- Machine: %d CPUs (%s), %s RAM, %s, %s; commit %s; load average %s before, %s after; %s.\n", mc.NumCPU, mc.CPUModel, mc.MemTotal, mc.Kernel, mc.GoVersion,
		mc.Commit, r.LoadBefore, r.LoadAfter, r.When.UTC().Format("2006-01-02 15:04 UTC"))
	w("- Corpus: the plan benchmark's, `.bench/plan/%s` (%s objects in %d files, %d Deployments of 1 replica). Each run applies it into a fresh namespace, with `--wait` (the default) and `--timeout 5m`, checks that every Deployment is Available when kubeplan returns, then deletes the namespace and waits for the cluster to go quiet.\n",
		r.Corpus.Dir, thousands(r.Corpus.Info.Spec.objects()), r.Corpus.Info.Files, r.Corpus.Info.Spec.Deployments)
	w("- Cluster: a fresh `bin/testcluster` (kube-apiserver %s, its simulated node starting pods at once).\n", orUnknown(r.Versions["server"]))
	w("- baseline: kubeplan built from commit %s (`git archive`, `go build ./cmd/kubeplan`): `%s`\n", r.Baseline, r.Commands[wBaseline])
	w("- fail-fast: kubeplan built from this tree (commit %s): `%s`\n", mc.Commit, r.Commands[wFailFast])
	w("- no-fail-fast: the same binary: `%s`\n", r.Commands[wNoFailFast])
	return b.String()
}

// orUnknown is s, or "unknown" when it is empty.
func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
