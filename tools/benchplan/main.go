package main

import (
	"github.com/kubeplan/kubeplan/internal/benchkit"

	"context"
	"errors"
	"flag"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

func main() { benchkit.Main("benchplan", run) }

// options are the command line.
type options struct {
	runs         int
	dir          string
	seed         int64
	doc          string
	large        bool
	kubectlLarge bool
	cpuProfile   string
	mode         string // plan or apply
	from         string // apply: render this saved result instead of running
	baseline     string // wait: the commit whose kubeplan is the baseline
}

func run(args []string) error {
	fs := flag.NewFlagSet("benchplan", flag.ContinueOnError)
	var o options
	fs.IntVar(&o.runs, "runs", 3, "timed runs of each tool, alternating, after one warm-up each")
	fs.StringVar(&o.dir, "dir", ".bench/plan", "working directory for the corpora (relative to the module root)")
	fs.Int64Var(&o.seed, "seed", 1, "seed of the corpus generator")
	benchkit.DocFlag(fs, &o.doc, sectionTitle)
	fs.BoolVar(&o.large, "large", true, "also plan the 10,000-object corpus")
	fs.BoolVar(&o.kubectlLarge, "kubectl-large", false, "also run kubectl diff (once) on the 10,000-object corpus")
	fs.StringVar(&o.cpuProfile, "cpuprofile", "", "plan: write a CPU profile of 5 in-process plans of the 1,200-object corpus to this file; apply: one profile per scenario, FILE-first.out, FILE-noop.out, FILE-prune.out")
	fs.StringVar(&o.mode, "mode", "plan", "plan: kubeplan plan vs kubectl diff; apply: kubeplan apply vs kubectl apply --prune --applyset (apply*.go); wait: a healthy apply --wait with and without --fail-fast vs -baseline's kubeplan (wait.go); waves: plan in 5 Argo CD sync waves vs without, and the time apply loses between waves (waves.go); guards: plan with the built-in guard rules and five of a team's vs with every rule off (guards.go)")
	fs.StringVar(&o.baseline, "baseline", defaultBaseline, "wait mode: the commit whose kubeplan a healthy apply --wait is compared with")
	fs.StringVar(&o.from, "from", "", "apply mode: render the result saved by an earlier run (DIR/apply-result.json) instead of running")
	root, err := benchkit.Start(fs, args, &o.runs)
	if err != nil {
		return err
	}
	o.dir = benchkit.Under(root, o.dir)
	switch o.mode {
	case "plan":
	case "apply":
		return runApplyBench(o, root)
	case "wait":
		return runWaitBench(o, root)
	case "waves":
		return runWavesBench(o, root)
	case "guards":
		return runGuardsBench(o, root)
	default:
		return fmt.Errorf("unknown -mode %q: want plan, apply, wait, waves or guards", o.mode)
	}
	res := &result{When: time.Now(), Machine: benchkit.DescribeMachine(root), Runs: o.runs,
		Samples: map[string][]sample{}, Outcomes: map[string][]outcome{}}

	// 1. The corpora.
	for _, cs := range []*corpusSet{&res.Small, &res.Large} {
		if cs == &res.Large && !o.large {
			continue
		}
		s := smallSpec
		if cs == &res.Large {
			s = largeSpec
		}
		s.Seed = o.seed
		cs.Namespace, cs.Dir = "bench", fmt.Sprintf("corpus-%d", s.objects())
		if cs == &res.Large {
			cs.Namespace = "bench10k"
		}
		info, generated, err := ensureCorpus(filepath.Join(o.dir, cs.Dir), s)
		if err != nil {
			return fmt.Errorf("generating the corpus: %w", err)
		}
		cs.Info = info
		step("corpus %s: %d objects in %d files (%.1f MiB)%s", benchkit.Rel(root, filepath.Join(o.dir, cs.Dir)), s.objects(), info.Files,
			float64(info.Bytes)/(1<<20), map[bool]string{true: ", generated", false: ", up to date"}[generated])
	}
	// 2. kubeplan and the cluster, stopped however this ends.
	bb, err := startBench(root, nil)
	if err != nil {
		return err
	}
	c, kpBin := bb.cluster, bb.kubeplan
	defer c.Stop()
	res.KubeplanVersion, res.KubectlVersion, res.ServerVersion = bb.kubeplanVersion, bb.kubectlVersion, bb.serverVersion
	if err := measureSmall(c, o, kpBin, res); err != nil {
		return err
	}
	if o.large {
		// A failure here still reports the 1,200-object results.
		if err := measureLarge(c, o, kpBin, res); err != nil {
			step("the %d-object run failed: %v", largeSpec.objects(), err)
			res.LargeErr = err.Error()
		}
	}
	res.LoadAfter = benchkit.LoadAverage()
	if err := c.Stop(); err != nil {
		step("stopping the cluster: %v", err)
	}

	// 4. Report.
	if err := benchkit.Publish(root, o.doc, sectionTitle, res.markdown(), step); err != nil {
		return err
	}
	if res.LargeErr != "" {
		return errors.New("the large corpus could not be planned: " + benchkit.FirstLines(res.LargeErr, 1))
	}
	return nil
}

// Tool names, in the order each round runs them.
const (
	kKubectl   = "kubectl"
	kKubectlFM = "kubectl-fm"
	kKubeplan  = "kubeplan"
	kRawDry    = "raw-dry-run"
	kRawList   = "raw-list"
)

func kubeplanTool(kpBin, dir, kubeconfig string, cs *corpusSet) tool {
	return tool{Name: "kubeplan plan", Bin: kpBin, Dir: dir, OKCodes: []int{0}, Args: []string{
		"plan", "-n", cs.Namespace, "--applyset", applySetFlag, "--adopt", "-o", "json", "--kubeconfig", kubeconfig, cs.Dir}}
}

func kubectlDiffTool(c *cluster, dir string, cs *corpusSet, fm bool) tool {
	t := tool{Name: "kubectl diff", Bin: "kubectl", Dir: dir, Env: c.kubectlEnv(), OKCodes: []int{0, 1},
		Args: []string{"diff", "--server-side", "-n", cs.Namespace, "-f", cs.Dir, "--kubeconfig", c.AdminKubeconfig()}}
	if fm {
		t.Args = append(t.Args[:2:2], append([]string{"--field-manager=" + fieldManager}, t.Args[2:]...)...)
	}
	return t
}

// measureSmall sets up the 1,200-object state and runs every tool
// alternately.
func measureSmall(c *cluster, o options, kpBin string, res *result) error {
	cs := &res.Small
	if err := setUpCorpus(c, o, cs); err != nil {
		return err
	}
	kc := c.AdminKubeconfig()
	kp := kubeplanTool(kpBin, o.dir, kc, cs)
	kd := kubectlDiffTool(c, o.dir, cs, false)
	kdm := kubectlDiffTool(c, o.dir, cs, true)
	res.Commands = map[string]string{kKubeplan: shown(kp, c), kKubectl: shown(kd, c), kKubectlFM: shown(kdm, c)}
	raw, err := newRawClient(kc, cs.Namespace, filepath.Join(o.dir, cs.Dir), cs.ApplySetID)
	if err != nil {
		return err
	}
	ctx := context.Background()
	round := func(record bool) error {
		for _, name := range []string{kKubectl, kKubeplan, kKubectlFM} {
			t := map[string]tool{kKubectl: kd, kKubeplan: kp, kKubectlFM: kdm}[name]
			s, out, err := t.Run(c.PID())
			if err != nil {
				return err
			}
			var oc outcome
			if name == kKubeplan {
				if oc, err = parseKubeplanPlan(out); err != nil {
					return err
				}
			} else {
				oc = parseKubectlDiff(out)
				if (oc.Changed > 0) != (s.ExitCode == 1) {
					return fmt.Errorf("%s exited %d but its output shows %d changed objects", t.CommandLine(), s.ExitCode, oc.Changed)
				}
			}
			if record {
				res.Samples[name] = append(res.Samples[name], s)
				res.Outcomes[name] = append(res.Outcomes[name], oc)
			}
		}
		s, err := rawDryRun(ctx, raw, c.PID())
		if err != nil {
			return err
		}
		var listed int
		l, err := benchkit.MeasureSelf(c.PID(), func() (err error) { listed, err = raw.list(ctx); return err })
		if err != nil {
			return err
		}
		if record {
			res.Samples[kRawDry] = append(res.Samples[kRawDry], s)
			res.Samples[kRawList] = append(res.Samples[kRawList], l)
			res.RawListed = listed
		}
		return nil
	}
	res.LoadBefore = benchkit.LoadAverage()
	step("warm-up: one run of each (load average %s)", res.LoadBefore)
	if err := round(false); err != nil {
		return err
	}
	for i := 0; i < o.runs; i++ {
		if err := round(true); err != nil {
			return err
		}
		g := func(k string) time.Duration { return res.Samples[k][i].Wall }
		step("run %d/%d: kubectl diff %s, kubeplan plan %s, kubectl diff --field-manager=kubeplan %s, raw dry-run %s, raw list %s",
			i+1, o.runs, secs(g(kKubectl)), secs(g(kKubeplan)), secs(g(kKubectlFM)), secs(g(kRawDry)), ms(g(kRawList)))
	}
	step("one in-process kubeplan plan, its requests recorded")
	a, err := planInProcess(kc, cs.Namespace, filepath.Join(o.dir, cs.Dir), c.PID())
	if err != nil {
		return fmt.Errorf("in-process plan: %w", err)
	}
	res.Anatomy = a
	if o.cpuProfile != "" {
		step("CPU profile of 5 in-process plans -> %s", o.cpuProfile)
		if err := profilePlan(o.cpuProfile, kc, cs.Namespace, filepath.Join(o.dir, cs.Dir), c.PID(), 5); err != nil {
			return err
		}
	}
	return nil
}

// measureLarge sets up the 10,000-object state and plans it, alternating
// with the raw dry-run loop.
func measureLarge(c *cluster, o options, kpBin string, res *result) error {
	cs := &res.Large
	if err := setUpCorpus(c, o, cs); err != nil {
		return err
	}
	kp := kubeplanTool(kpBin, o.dir, c.AdminKubeconfig(), cs)
	res.Commands["large"] = shown(kp, c)
	raw, err := newRawClient(c.AdminKubeconfig(), cs.Namespace, filepath.Join(o.dir, cs.Dir), cs.ApplySetID)
	if err != nil {
		return err
	}
	ctx := context.Background()
	step("warm-up: kubeplan plan of %d objects", cs.Info.Spec.objects())
	if _, _, err := kp.Run(c.PID()); err != nil {
		return err
	}
	for i := 0; i < o.runs; i++ {
		s, out, err := kp.Run(c.PID())
		if err != nil {
			return err
		}
		oc, err := parseKubeplanPlan(out)
		if err != nil {
			return err
		}
		r, err := rawDryRun(ctx, raw, c.PID())
		if err != nil {
			return err
		}
		res.LargeKP, res.LargeRaw = append(res.LargeKP, s), append(res.LargeRaw, r)
		res.LargeOutcomes = append(res.LargeOutcomes, oc)
		step("large run %d/%d: kubeplan plan %s (%s), raw dry-run %s", i+1, o.runs, secs(s.Wall), oc.Summary, secs(r.Wall))
	}
	if o.kubectlLarge {
		kd := kubectlDiffTool(c, o.dir, cs, false)
		s, out, err := kd.Run(c.PID())
		if err != nil {
			return err
		}
		res.LargeKubectl = &s
		oc := parseKubectlDiff(out)
		res.LargeKubectlOutcome = &oc
		step("large: kubectl diff %s (%s)", secs(s.Wall), oc.Summary)
	}
	return nil
}

// setUpCorpus applies cs into its namespace and reads the ApplySet's id.
func setUpCorpus(c *cluster, o options, cs *corpusSet) error {
	step("applying %s into namespace %s (kubectl apply --server-side --applyset, as the seed does)", cs.Dir, cs.Namespace)
	took, err := c.setUp(cs.Namespace, filepath.Join(o.dir, cs.Dir), cs.Info.Spec.Deployments)
	if err != nil {
		return err
	}
	cs.ApplyTime = took
	if cs.ApplySetID, err = c.applySetID(cs.Namespace); err != nil {
		return err
	}
	step("  applied in %s; Deployments available, cluster quiet", secs(took))
	return nil
}

// shown is how the report shows a command: the temporary kubeconfig as
// admin.kubeconfig, and no cache directory.
func shown(t tool, c *cluster) string {
	t.Env = nil
	if filepath.IsAbs(t.Bin) {
		t.Bin = filepath.Join("bin", filepath.Base(t.Bin)) // bin/kubeplan
	}
	t.Args = append([]string(nil), t.Args...)
	for i, a := range t.Args {
		t.Args[i] = strings.ReplaceAll(a, c.AdminKubeconfig(), "admin.kubeconfig")
	}
	return t.CommandLine()
}

// goBuild builds kubeplan from the working tree.
func goBuild(root, out string) error {
	cmd := exec.Command("go", "build", "-o", out, "./cmd/kubeplan")
	cmd.Dir = root
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("building kubeplan: %w\n%s", err, b)
	}
	return nil
}

// step prints a progress line.
var step = benchkit.Stepper("benchplan")

// rawDryRun measures the raw client-go loop that dry-runs every object.
func rawDryRun(ctx context.Context, raw *rawClient, serverPID int) (sample, error) {
	return benchkit.MeasureSelf(serverPID, func() error {
		failed, err := raw.dryRun(ctx, rawInFlight)
		if failed > 0 {
			return fmt.Errorf("raw dry-run: %d of %d objects refused: %w", failed, len(raw.objects), err)
		}
		return err
	})
}
