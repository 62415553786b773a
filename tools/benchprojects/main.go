package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/kubeplan/kubeplan/internal/benchkit"
)

func main() { benchkit.Main("benchprojects", run) }

type options struct {
	runs  int
	quick bool
	keep  bool
	hold  bool
	doc   string
}

// The four commands, in the order of the first round.
const (
	kAll     = "a"
	kFlat    = "b"
	kChanged = "c"
	kKubectl = "d"
	kOneSet  = "e"
	kOne     = "f"
)

var order = []string{kAll, kFlat, kChanged, kKubectl, kOneSet, kOne}

func run(args []string) error {
	fs := flag.NewFlagSet("benchprojects", flag.ContinueOnError)
	var o options
	fs.IntVar(&o.runs, "runs", 3, "timed rounds, after one untimed warm-up round")
	fs.BoolVar(&o.quick, "quick", false, fmt.Sprintf("a smoke test: %d bases (%d projects) instead of %d (%d)", quickSpec.Bases, quickSpec.projects(), fullSpec.Bases, fullSpec.projects()))
	fs.BoolVar(&o.keep, "keep", false, "keep the generated repository and the flat directory (their path is printed)")
	fs.BoolVar(&o.hold, "hold", false, "set up, print the environment to run the commands by hand (profiling), and wait for Ctrl-C instead of measuring")
	benchkit.DocFlag(fs, &o.doc, sectionTitle)
	root, err := benchkit.Start(fs, args, &o.runs)
	if err != nil {
		return err
	}
	s := fullSpec
	if o.quick {
		s = quickSpec
	}
	res := &result{When: time.Now(), Machine: benchkit.DescribeMachine(root), Runs: o.runs, Spec: s, Quick: o.quick,
		Samples: map[string][]sample{}, Errors: map[string]string{}, Outputs: map[string]string{}}

	// 1. The repository and the flat directory.
	work, err := os.MkdirTemp("", "benchprojects-")
	if err != nil {
		return err
	}
	if o.keep {
		step("keeping %s", work)
	} else {
		defer os.RemoveAll(work)
	}
	repo, flat := filepath.Join(work, "repo"), filepath.Join(work, "flat")
	if err := writeRepo(repo, s); err != nil {
		return fmt.Errorf("generating the repository: %w", err)
	}
	n, err := writeFlat(repo, flat, s)
	if err != nil {
		return err
	}
	step("repository: %d bases x %d overlays = %d projects, %d objects (committed); flat directory: %d objects", s.Bases, len(envs), s.projects(), s.objects(), n)

	// 2. The cluster, stopped however this ends.
	step("building bin/kubeplan, starting bin/testcluster")
	c, err := launch(root)
	if err != nil {
		return err
	}
	defer c.Stop()
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	if o.hold {
		o.keep = true
	}
	go func() {
		if o.hold {
			return // hold waits for the signal itself
		}
		step("%s: stopping the cluster", <-sig)
		c.Stop()
		if !o.keep {
			os.RemoveAll(work)
		}
		os.Exit(130)
	}()
	res.KubeplanVersion = benchkit.ToolVersion(c.kubeplan, "version")
	res.KubectlVersion = benchkit.ToolVersion("kubectl", "version", "--client")
	step("applying the %d projects and the flat set once (kubeplan apply --wait=false)", s.projects())
	start := time.Now()
	if err := c.setUp(repo, flat, s); err != nil {
		return err
	}
	step("  applied in %s; Deployments available, cluster quiet", secs(time.Since(start)))
	floor, err := kustomizeFloor(repo, s)
	if err != nil {
		return err
	}
	res.KustomizeFloor = floor
	step("the bare kustomize library builds the %d overlays in %s", s.projects(), secs(floor))
	changed, err := changeOne(repo, s)
	if err != nil {
		return err
	}
	res.Changed = changed.Dir()
	step("committed a new image tag in %s", changed.Dir())

	// 3. The rounds.
	tools := commands(c, repo, flat, s)
	if o.hold {
		return hold(c, repo, tools, sig)
	}
	res.Commands = map[string]string{}
	for k, ts := range tools {
		res.Commands[k] = shown(ts[0], work)
		if len(ts) > 1 {
			res.Commands[k] = fmt.Sprintf("for each of the %d overlays: %s", len(ts), shown(ts[0], work))
		}
	}
	res.LoadBefore = benchkit.LoadAverage()
	for r := 0; r <= o.runs; r++ {
		var line []string
		for i := range order {
			k := order[(r+i)%len(order)]
			if res.Errors[k] != "" {
				continue
			}
			smp, out, err := runAll(tools[k], c.PID())
			if err != nil {
				res.Errors[k] = benchkit.FirstLines(err.Error(), 3)
				step("%s failed: %s", k, res.Errors[k])
				continue
			}
			res.Outputs[k] = lastLine(out)
			if r > 0 {
				res.Samples[k] = append(res.Samples[k], smp)
			}
			line = append(line, fmt.Sprintf("%s %s", k, secs(smp.Wall)))
		}
		if r == 0 {
			step("warm-up: %s", strings.Join(line, ", "))
		} else {
			step("run %d/%d: %s", r, o.runs, strings.Join(line, ", "))
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
	if len(res.Errors) > 0 {
		var ks []string
		for _, k := range order {
			if res.Errors[k] != "" {
				ks = append(ks, k)
			}
		}
		return fmt.Errorf("not measured: %s (see the table)", strings.Join(ks, ", "))
	}
	return nil
}

// commands are the tools of each scenario; d is one kubectl diff per
// overlay, run in turn and measured as one.
func commands(c *cluster, repo, flat string, s spec) map[string][]tool {
	env := c.env()
	kp := func(args ...string) tool {
		return tool{Name: "kubeplan " + strings.Join(args, " "), Bin: c.kubeplan, Dir: repo, Env: env, OKCodes: []int{0}, Args: args}
	}
	m := map[string][]tool{
		kAll:     {kp("plan", "--all", ".")},
		kFlat:    {kp("plan", "-n", flatNamespace, "--applyset", flatApplySet, flat)},
		kChanged: {kp("plan", "--changed-since", "HEAD~1")},
		kOneSet:  {kp("plan", "-n", oneSetNamespace, "--applyset", oneSetApplySet, oneSetDir)},
		kOne:     {kp("plan", "--project", s.overlays()[0].Project(), ".")},
	}
	for _, o := range s.overlays() {
		m[kKubectl] = append(m[kKubectl], tool{Name: "kubectl diff " + o.Dir(), Bin: "kubectl", Dir: repo, Env: env, OKCodes: []int{0, 1},
			Args: []string{"diff", "--server-side", "--field-manager=kubeplan", "-k", o.Dir()}})
	}
	return m
}

// runAll runs the tools one after the other as one sample: the wall time of
// all, their CPU time summed, the largest peak RSS. It returns the last
// tool's output.
func runAll(ts []tool, serverPID int) (sample, []byte, error) {
	var total sample
	var out []byte
	srv := benchkit.ProcessCPU(serverPID)
	start := time.Now()
	for _, t := range ts {
		s, o, err := t.Run(0)
		if err != nil {
			return total, nil, err
		}
		total.CPU += s.CPU
		total.MaxRSS = max(total.MaxRSS, s.MaxRSS)
		total.ExitCode = max(total.ExitCode, s.ExitCode)
		out = o
	}
	total.Wall = time.Since(start)
	total.ServerCPU = benchkit.ProcessCPU(serverPID) - srv
	return total, out, nil
}

// shown is how the report shows a command: paths relative to the work
// directory, the binary as bin/kubeplan.
func shown(t tool, work string) string {
	t.Env = nil
	if filepath.IsAbs(t.Bin) {
		t.Bin = filepath.Join("bin", filepath.Base(t.Bin))
	}
	t.Args = append([]string(nil), t.Args...)
	for i, a := range t.Args {
		t.Args[i] = strings.ReplaceAll(a, work+string(filepath.Separator), "")
	}
	return t.CommandLine()
}

func lastLine(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// step prints a progress line.
var step = benchkit.Stepper("benchprojects")

func secs(d time.Duration) string { return fmt.Sprintf("%.2f s", d.Seconds()) }
