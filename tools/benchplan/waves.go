package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/kubeplan/kubeplan/internal/benchkit"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

// wavesSectionTitle is the heading of the section -mode waves -doc rewrites.
const wavesSectionTitle = "## Plan and apply in waves (Argo CD sync waves)"

// The targets of issue 29.
const (
	targetWavesPlanRatio = 1.05            // plan in 5 waves / the same plan without waves
	targetWaveGap        = 1 * time.Second // next wave's first write - the wave healthy
	planWaves            = 5
	minApplyWaves        = 2
	maxApplyWaves        = 5
)

// wavesResult is what one -mode waves run found.
type wavesResult struct {
	When                  time.Time
	Machine               benchkit.Machine
	LoadBefore, LoadAfter string
	Runs                  int
	Plain, Waved          corpusSet
	Stages                int // stages of the waved corpus's saved plan
	Versions              map[string]string
	Commands              map[string]string
	PlainSamples          []sample
	WavedSamples          []sample
	PlainOutcome          outcome
	WavedOutcome          outcome
	Applies               []waveApply
}

// waveApply is one first apply of the corpus spread over Waves waves.
type waveApply struct {
	Waves int
	Wall  time.Duration
	Gaps  []waveGap
}

// waveGap is one boundary between wave From and wave From+1.
type waveGap struct {
	From int
	// Healthy: the last Deployment of wave From seen rolled out by a watch
	// beside kubeplan's; Status: the last status write to a Deployment of
	// the wave the API server logged before the next wave's first write.
	Healthy, Status time.Time
	Deployment      string // the Deployment that was last healthy
	Next            time.Time
	Gap, StatusGap  time.Duration
}

// runWavesBench is -mode waves: the plan of the 1,200-object corpus spread
// over 5 Argo CD sync waves against the same plan without waves
// (alternating), then first applies of the corpus in 2 to 5 waves, timing
// from the API server's audit log how long each next wave's first write
// came after the wave before became healthy.
func runWavesBench(o options, root string) error {
	res := &wavesResult{When: time.Now(), Machine: benchkit.DescribeMachine(root), Runs: o.runs,
		Versions: map[string]string{}, Commands: map[string]string{}}
	s := smallSpec
	s.Seed = o.seed
	res.Plain = corpusSet{Namespace: "bench", Dir: fmt.Sprintf("corpus-%d", s.objects())}
	info, _, err := ensureCorpus(filepath.Join(o.dir, res.Plain.Dir), s)
	if err != nil {
		return fmt.Errorf("generating the corpus: %w", err)
	}
	res.Plain.Info = info
	waved := func(k int) string { return fmt.Sprintf("%s-waves-%d", res.Plain.Dir, k) }
	for k := minApplyWaves; k <= maxApplyWaves; k++ {
		if err := writeWaved(filepath.Join(o.dir, res.Plain.Dir), filepath.Join(o.dir, waved(k)), k); err != nil {
			return fmt.Errorf("spreading the corpus over %d waves: %w", k, err)
		}
	}
	res.Waved = corpusSet{Namespace: "benchwaves", Dir: waved(planWaves), Info: info}
	step("corpus %s: %d objects; copies in 2 to 5 waves (%s)", res.Plain.Dir, s.objects(), waveAnnotation)

	// The API server's audit log gives the order and time of every write.
	os.Setenv("TESTCLUSTER_AUDIT_LOG", "1")
	bb, err := startBench(root, nil)
	if err != nil {
		return err
	}
	c := bb.cluster
	defer c.Stop()
	audit := filepath.Join(c.Dir(), "audit.log")
	if _, err := os.Stat(audit); err != nil {
		return fmt.Errorf("the testcluster writes no audit log (%w): rebuild it with `make testcluster`", err)
	}
	res.Versions["kubeplan"], res.Versions["server"] = bb.kubeplanVersion, bb.serverVersion

	if err := measureWavesPlan(c, o, bb.kubeplan, res); err != nil {
		return err
	}
	if _, err := c.deleteNamespaces(res.Plain.Namespace, res.Waved.Namespace); err != nil {
		return err
	}
	for k := minApplyWaves; k <= maxApplyWaves; k++ {
		a, err := measureWavesApply(c, o, bb.kubeplan, audit, waved(k), k, s, res)
		if err != nil {
			return fmt.Errorf("apply in %d waves: %w", k, err)
		}
		res.Applies = append(res.Applies, a)
	}
	res.LoadAfter = benchkit.LoadAverage()
	if err := benchkit.Publish(root, o.doc, wavesSectionTitle, res.markdown(), step); err != nil {
		return err
	}
	if ratio := pairedRatio(res.WavedSamples, res.PlainSamples); ratio > targetWavesPlanRatio {
		return fmt.Errorf("the plan in %d waves took %.2fx the plan without waves (target %.2fx)", planWaves, ratio, targetWavesPlanRatio)
	}
	return nil
}

// measureWavesPlan applies both corpora as the seed does (kubectl) and
// plans each with kubeplan, alternating, the order swapped every run.
func measureWavesPlan(c *cluster, o options, kpBin string, res *wavesResult) error {
	for _, cs := range []*corpusSet{&res.Plain, &res.Waved} {
		if err := setUpCorpus(c, o, cs); err != nil {
			return err
		}
	}
	plain := kubeplanTool(kpBin, o.dir, c.AdminKubeconfig(), &res.Plain)
	wavedTool := kubeplanTool(kpBin, o.dir, c.AdminKubeconfig(), &res.Waved)
	res.Commands["plain"], res.Commands["waved"] = shown(plain, c), shown(wavedTool, c)

	// The waved plan does place the objects in 5 stages.
	saved := filepath.Join(o.dir, "waves-plan.json")
	check := wavedTool
	check.Args = append(append([]string(nil), check.Args...), "--out", saved)
	if _, _, err := check.Run(c.PID()); err != nil {
		return err
	}
	n, err := savedStages(saved)
	if err != nil {
		return err
	}
	if res.Stages = n; n != planWaves {
		return fmt.Errorf("the plan of %s has %d stages, want %d", res.Waved.Dir, n, planWaves)
	}

	res.LoadBefore = benchkit.LoadAverage()
	step("plan: warm-up, then %d runs of each, alternating (load average %s)", o.runs, res.LoadBefore)
	for i := -1; i < o.runs; i++ {
		order := []*tool{&plain, &wavedTool}
		if i%2 != 0 {
			order[0], order[1] = order[1], order[0]
		}
		var got [2]sample
		for _, t := range order {
			smp, out, err := t.Run(c.PID())
			if err != nil {
				return err
			}
			oc, err := parseKubeplanPlan(out)
			if err != nil {
				return err
			}
			if t == &plain {
				got[0], res.PlainOutcome = smp, oc
			} else {
				got[1], res.WavedOutcome = smp, oc
			}
		}
		if i < 0 {
			continue
		}
		res.PlainSamples, res.WavedSamples = append(res.PlainSamples, got[0]), append(res.WavedSamples, got[1])
		step("plan run %d/%d: without waves %s, in %d waves %s", i+1, o.runs, secs(got[0].Wall), planWaves, secs(got[1].Wall))
	}
	if res.PlainOutcome.Summary != res.WavedOutcome.Summary {
		return fmt.Errorf("the plans differ: %q without waves, %q in waves", res.PlainOutcome.Summary, res.WavedOutcome.Summary)
	}
	return nil
}

// savedStages counts the stages of a plan saved with --out.
func savedStages(path string) (int, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	var p struct {
		Stages []json.RawMessage `json:"stages"`
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	return len(p.Stages), nil
}

// measureWavesApply applies the corpus in k waves into a fresh namespace
// and times each boundary between waves.
func measureWavesApply(c *cluster, o options, kpBin, audit, corpus string, k int, s spec, res *wavesResult) (waveApply, error) {
	ns := fmt.Sprintf("waves-%d", k)
	if err := c.createNamespaces(ns); err != nil {
		return waveApply{}, err
	}
	t := tool{Name: "kubeplan apply", Bin: kpBin, Dir: o.dir, OKCodes: []int{0},
		Args: []string{"apply", "-n", ns, "--applyset", applySetFlag, "--timeout", "10m", "--kubeconfig", c.AdminKubeconfig(), corpus}}
	res.Commands[fmt.Sprintf("apply-%d", k)] = shown(t, c)
	c.settle()
	offset, err := auditSize(audit)
	if err != nil {
		return waveApply{}, err
	}
	w, err := watchAvailability(c.AdminKubeconfig(), ns)
	if err != nil {
		return waveApply{}, err
	}
	smp, out, err := t.Run(c.PID())
	seen, werr := w.close()
	if err != nil {
		return waveApply{}, fmt.Errorf("%w\n%s", err, benchkit.FirstLines(string(out), 20))
	}
	if werr != "" {
		return waveApply{}, errors.New(werr)
	}
	events, err := testkube.ReadAudit(audit, offset)
	if err != nil {
		return waveApply{}, err
	}
	a, err := waveGaps(events, ns, waveOf(s, k), seen, k)
	if err != nil {
		return waveApply{}, err
	}
	a.Wall = smp.Wall
	for _, g := range a.Gaps {
		step("apply in %d waves: wave %d healthy -> wave %d's first write: %s (from the last status write: %s)", k, g.From, g.From+1, ms(g.Gap), ms(g.StatusGap))
	}
	if _, err := c.deleteNamespaces(ns); err != nil {
		return a, err
	}
	return a, nil
}

// waveGaps finds, for each wave w < k-1, when its last Deployment was seen
// rolled out and when kubeplan's first write of wave w+1 reached the API
// server. It refuses a run where a wave began before the one before it
// was healthy or where writes of the waves interleave.
func waveGaps(events []auditEvent, ns string, wave map[string]int, seen map[string]time.Time, k int) (waveApply, error) {
	a := waveApply{Waves: k}
	first := make([]time.Time, k)
	last := make([]time.Time, k)
	highest := -1
	for _, e := range events {
		if !kubeplanWrite(e, ns) {
			continue
		}
		w, ok := wave[e.Key()]
		if !ok {
			continue // the ApplySet parent, the lock
		}
		if w < highest {
			return a, fmt.Errorf("%s %s (wave %d) was written after a write of wave %d", e.Verb, e.Key(), w, highest)
		}
		highest = max(highest, w)
		if first[w].IsZero() {
			first[w] = e.Received
		}
		last[w] = e.Done
	}
	healthy := make([]time.Time, k)
	healthyName := make([]string, k)
	for key, w := range wave {
		res, name, _ := strings.Cut(key, "/")
		if res != "deployments" {
			continue
		}
		at, ok := seen[name]
		if !ok {
			return a, fmt.Errorf("deployment %s was never seen rolled out", name)
		}
		if at.After(healthy[w]) {
			healthy[w], healthyName[w] = at, name
		}
	}
	for w := 0; w+1 < k; w++ {
		if first[w+1].IsZero() {
			return a, fmt.Errorf("wave %d was never written", w+1)
		}
		g := waveGap{From: w, Healthy: healthy[w], Deployment: healthyName[w], Next: first[w+1], Gap: first[w+1].Sub(healthy[w])}
		for _, e := range events {
			if e.ObjectRef.Subresource != "status" || e.ObjectRef.Resource != "deployments" || e.ObjectRef.Namespace != ns || e.ResponseStatus.Code >= 300 {
				continue
			}
			if wave[e.Key()] == w && e.Done.Before(first[w+1]) && e.Done.After(g.Status) {
				g.Status = e.Done
			}
		}
		g.StatusGap = first[w+1].Sub(g.Status)
		a.Gaps = append(a.Gaps, g)
	}
	return a, nil
}

// markdown is the section docs/benchmarks.md keeps.
func (r *wavesResult) markdown() string {
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	w("%s\n\n", wavesSectionTitle)
	w("Command: `make bench-plan-waves` (`go run ./tools/benchplan -mode waves`; `-runs N` plans, `-doc docs/benchmarks.md` rewrites this section). It takes the machine for about ten minutes: run it alone.\n\n")
	w("Targets (issue 29): a plan of the %s-object corpus spread over %d Argo CD sync waves (`%s`, app *i* in wave *i* mod %d) costs at most %.2f× the same plan without waves; between waves, apply loses at most %s beyond the previous wave becoming healthy.\n\n",
		thousands(r.Plain.Info.Spec.objects()), planWaves, waveAnnotation, planWaves, targetWavesPlanRatio, targetWaveGap)
	ratio := pairedRatio(r.WavedSamples, r.PlainSamples)
	ps, ws := benchkit.Summarize(r.PlainSamples), benchkit.Summarize(r.WavedSamples)
	verdict := "PASS"
	if ratio > targetWavesPlanRatio {
		verdict = "FAIL"
	}
	w("**Plan: %s**: in %d waves %.3f× the wall time without waves (median of the paired ratios; CPU %.3f×).\n\n", verdict, planWaves, ratio,
		benchkit.Div(float64(ws.MedianCPU), float64(ps.MedianCPU)))
	var gaps []time.Duration
	for _, a := range r.Applies {
		for _, g := range a.Gaps {
			gaps = append(gaps, g.Gap)
		}
	}
	sort.Slice(gaps, func(i, j int) bool { return gaps[i] < gaps[j] })
	verdict = "PASS"
	if len(gaps) == 0 || gaps[len(gaps)-1] > targetWaveGap {
		verdict = "FAIL"
	}
	if len(gaps) > 0 {
		w("**Apply: %s**: over %d wave boundaries, the next wave's first write came %s (median) and at most %s after the wave before was healthy.\n\n", verdict, len(gaps),
			ms(gaps[len(gaps)/2]), ms(gaps[len(gaps)-1]))
	}
	w("Plans, %d runs of each after one warm-up each, alternating, the order swapped every run; medians:\n\n", r.Runs)
	w("| plan | wall | fastest | CPU | peak RSS | cluster CPU | result |\n|---|---:|---:|---:|---:|---:|---|\n")
	for _, row := range []struct {
		name string
		s    benchkit.Summary
		oc   outcome
	}{{"without waves", ps, r.PlainOutcome}, {fmt.Sprintf("in %d waves", planWaves), ws, r.WavedOutcome}} {
		w("| %s | %s | %s | %s | %.0f MiB | %s | %s |\n", row.name, secs(row.s.MedianWall), secs(row.s.MinWall), secs(row.s.MedianCPU),
			float64(row.s.PeakRSS)/1024, secs(row.s.MedianSrv), row.oc.Summary)
	}
	w("\nEvery plan, in order (s): without waves %s; in waves %s.\n\n", walls(r.PlainSamples), walls(r.WavedSamples))
	w("Applies: one first apply of the corpus in 2, 3, 4 and 5 waves, each into a fresh namespace. *healthy* is when the wave's last Deployment was seen rolled out (observed generation, every replica updated, ready and available, `Available` True) by a watch the benchmark runs beside kubeplan's; *next write* is when the API server received kubeplan's first write of the next wave (its audit log); *from status* is the next write minus the last status write to a Deployment of the wave that the API server logged before it.\n\n")
	w("| waves | apply wall | boundary | last healthy | gap | from status |\n|---:|---:|---|---|---:|---:|\n")
	for _, a := range r.Applies {
		for i, g := range a.Gaps {
			wall := ""
			if i == 0 {
				wall = secs(a.Wall)
			}
			w("| %d | %s | wave %d → %d | %s | %s | %s |\n", a.Waves, wall, g.From, g.From+1, g.Deployment, ms(g.Gap), ms(g.StatusGap))
		}
	}
	mc := r.Machine
	w("\nHow it was measured:\n\n")
	w("- Machine: %d CPUs (%s), %s RAM, %s, %s; commit %s; load average %s before, %s after; %s.\n", mc.NumCPU, mc.CPUModel, mc.MemTotal, mc.Kernel, mc.GoVersion,
		mc.Commit, r.LoadBefore, r.LoadAfter, r.When.UTC().Format("2006-01-02 15:04 UTC"))
	w("- Corpus: the plan benchmark's, `.bench/plan/%s` (%s objects, %d Deployments of 1 replica), and copies of it with every object of app *i* annotated `%s: \"i mod N\"` (`.bench/plan/%s-waves-N`). The saved plan of the 5-wave copy has %d stages.\n",
		r.Plain.Dir, thousands(r.Plain.Info.Spec.objects()), r.Plain.Info.Spec.Deployments, waveAnnotation, r.Plain.Dir, r.Stages)
	w("- Plans: both corpora applied first as the seed does (`kubectl apply --server-side --applyset`, namespaces `%s` and `%s`), so each plan adopts them and finds the same: `%s` and `%s`.\n",
		r.Plain.Namespace, r.Waved.Namespace, r.Commands["plain"], r.Commands["waved"])
	w("- Applies: `%s` (N = 2 to 5).\n", r.Commands[fmt.Sprintf("apply-%d", maxApplyWaves)])
	w("- Cluster: a fresh `bin/testcluster` (kube-apiserver %s) with its audit log on (`TESTCLUSTER_AUDIT_LOG=1`, testcluster/README.md).\n", orUnknown(r.Versions["server"]))
	return b.String()
}

// walls lists the wall times of samples in seconds.
func walls(ss []sample) string {
	var out []string
	for _, s := range ss {
		out = append(out, fmt.Sprintf("%.2f", s.Wall.Seconds()))
	}
	return strings.Join(out, ", ")
}
