package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/kubeplan/kubeplan/internal/benchkit"
)

// guardsSectionTitle is the heading of the section -mode guards -doc
// rewrites.
const guardsSectionTitle = "## plan: the cost of guard rules"

// targetGuardsRatio is issue 30's target: the plan judged by the built-in
// rules and five of a team's / the same plan judged by none.
const targetGuardsRatio = 1.05

// guardsResult is what one -mode guards run found.
type guardsResult struct {
	When                  time.Time
	Machine               benchkit.Machine
	LoadBefore, LoadAfter string
	Runs                  int
	// Base is the corpus as kubectl applied it; Changed the copy both
	// plans read (guardscorpus.go), in the same namespace.
	Base, Changed corpusSet
	Versions      map[string]string
	Commands      map[string]string
	// Without and With are the timed plans, without rules and with,
	// paired by index.
	Without, With []sample
	// WithoutPlan and WithPlan are what each plan found (the last run's).
	WithoutPlan, WithPlan guardsPlan
	// Expected are the verdicts the plan with rules must get.
	Expected map[string]int
}

// guardsPlan is what one `kubeplan plan -o json` of -mode guards said.
type guardsPlan struct {
	Outcome outcome
	// Verdicts counts the plan's guard verdicts by "rule (outcome)".
	Verdicts map[string]int
}

// parseGuardsPlan reads the summary and the guard verdicts of `kubeplan
// plan -o json`.
func parseGuardsPlan(out []byte) (guardsPlan, error) {
	oc, err := parseKubeplanPlan(out)
	if err != nil {
		return guardsPlan{}, err
	}
	var doc struct {
		Guards []struct {
			Rule    string `json:"rule"`
			Outcome string `json:"outcome"`
		} `json:"guards"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		return guardsPlan{}, fmt.Errorf("reading kubeplan's JSON plan: %w", err)
	}
	p := guardsPlan{Outcome: oc, Verdicts: map[string]int{}}
	for _, v := range doc.Guards {
		p.Verdicts[v.Rule+" ("+v.Outcome+")"]++
	}
	return p, nil
}

// runGuardsBench is -mode guards: the 1,200-object corpus applied as the
// seed does, then the plan of its changed copy (every object updated),
// judged by the built-in rules and five of a team's, against the same
// plan with every rule off, alternating, the order swapped every run.
func runGuardsBench(o options, root string) error {
	res := &guardsResult{When: time.Now(), Machine: benchkit.DescribeMachine(root), Runs: o.runs,
		Versions: map[string]string{}, Commands: map[string]string{}}
	s := smallSpec
	s.Seed = o.seed
	res.Base = corpusSet{Namespace: "benchguards", Dir: fmt.Sprintf("corpus-%d", s.objects())}
	info, _, err := ensureCorpus(filepath.Join(o.dir, res.Base.Dir), s)
	if err != nil {
		return fmt.Errorf("generating the corpus: %w", err)
	}
	res.Base.Info = info
	res.Changed = corpusSet{Namespace: res.Base.Namespace, Dir: res.Base.Dir + "-guards", Info: info}
	if err := writeChanged(filepath.Join(o.dir, res.Base.Dir), filepath.Join(o.dir, res.Changed.Dir)); err != nil {
		return fmt.Errorf("changing the corpus: %w", err)
	}
	without, with, err := writeGuardsConfigs(o.dir)
	if err != nil {
		return err
	}
	res.Expected = guardsExpected(s)
	step("corpus %s: %d objects; its changed copy %s; configs %s and %s", res.Base.Dir, s.objects(), res.Changed.Dir, without, with)

	bb, err := startBench(root, nil)
	if err != nil {
		return err
	}
	c := bb.cluster
	defer c.Stop()
	res.Versions["kubeplan"], res.Versions["server"] = bb.kubeplanVersion, bb.serverVersion
	if err := setUpCorpus(c, o, &res.Base); err != nil {
		return err
	}
	res.Changed.ApplySetID = res.Base.ApplySetID
	if err := measureGuardsPlan(c, o, bb.kubeplan, without, with, res); err != nil {
		return err
	}
	res.LoadAfter = benchkit.LoadAverage()
	if err := c.Stop(); err != nil {
		step("stopping the cluster: %v", err)
	}
	if err := benchkit.Publish(root, o.doc, guardsSectionTitle, res.markdown(), step); err != nil {
		return err
	}
	if err := res.checkVerdicts(); err != nil {
		return err
	}
	if ratio := pairedRatio(res.With, res.Without); ratio > targetGuardsRatio {
		return fmt.Errorf("the plan with rules took %.3fx the plan without rules (target %.2fx)", ratio, targetGuardsRatio)
	}
	return nil
}

// measureGuardsPlan plans the changed corpus without rules and with,
// after one untimed warm-up of each, alternating, the order swapped
// every run, and checks that both plans found every object changed.
func measureGuardsPlan(c *cluster, o options, kpBin, withoutConfig, withConfig string, res *guardsResult) error {
	plainTool := kubeplanTool(kpBin, o.dir, c.AdminKubeconfig(), &res.Changed)
	withoutTool, withTool := withConfigFlag(plainTool, withoutConfig), withConfigFlag(plainTool, withConfig)
	withoutTool.Name, withTool.Name = "kubeplan plan (without rules)", "kubeplan plan (with rules)"
	res.Commands[withoutRules], res.Commands[withRules] = shown(withoutTool, c), shown(withTool, c)

	res.LoadBefore = benchkit.LoadAverage()
	step("plan: warm-up, then %d runs of each, alternating (load average %s)", o.runs, res.LoadBefore)
	for i := -1; i < o.runs; i++ {
		order := []*tool{&withoutTool, &withTool}
		if i%2 != 0 {
			order[0], order[1] = order[1], order[0]
		}
		var got [2]sample
		for _, t := range order {
			smp, out, err := t.Run(c.PID())
			if err != nil {
				return err
			}
			p, err := parseGuardsPlan(out)
			if err != nil {
				return err
			}
			if t == &withoutTool {
				got[0], res.WithoutPlan = smp, p
			} else {
				got[1], res.WithPlan = smp, p
			}
		}
		if i < 0 {
			if err := res.checkPlans(); err != nil {
				return err
			}
			continue
		}
		res.Without, res.With = append(res.Without, got[0]), append(res.With, got[1])
		step("plan run %d/%d: without rules %s, with rules %s (%s)", i+1, o.runs, secs(got[0].Wall), secs(got[1].Wall), verdictList(res.WithPlan.Verdicts))
	}
	return res.checkPlans()
}

// withConfigFlag is t reading its guards from config (--config).
func withConfigFlag(t tool, config string) tool {
	t.Args = append(append([]string(nil), t.Args...), "--config", config)
	return t
}

// checkPlans refuses plans that judge less than the benchmark means to
// measure: both must update every object of the corpus, and the plan
// without rules must have no verdicts.
func (r *guardsResult) checkPlans() error {
	want := r.Changed.Info.Spec.objects()
	for _, p := range []struct {
		name string
		p    guardsPlan
	}{{withoutRules, r.WithoutPlan}, {withRules, r.WithPlan}} {
		if oc := p.p.Outcome; oc.Changed != want || oc.Unchanged != 0 {
			return fmt.Errorf("the plan %s found %q, want all %d objects changed: the rules would not judge what the benchmark means", strings.ReplaceAll(p.name, "-", " "), oc.Summary, want)
		}
	}
	if len(r.WithoutPlan.Verdicts) > 0 {
		return fmt.Errorf("the plan without rules has verdicts (%s): the built-in rules were not switched off", verdictList(r.WithoutPlan.Verdicts))
	}
	return nil
}

// checkVerdicts refuses a run whose plan with rules did not get exactly
// the verdicts the rules give on the changed corpus: then the rules were
// not evaluated (the engine, or kubeplan.yaml's guards:, is not in the
// kubeplan built) and the ratio measures nothing.
func (r *guardsResult) checkVerdicts() error {
	if maps.Equal(r.WithPlan.Verdicts, r.Expected) {
		return nil
	}
	return errors.New("the plan with rules got the verdicts " + verdictList(r.WithPlan.Verdicts) + ", want " + verdictList(r.Expected) +
		": the rules were not all evaluated, so the ratio measures nothing (is the guard engine in this kubeplan, and does a plain invocation read guards: from --config?)")
}

// verdictList shows verdict counts as "large-change (warn) ×1, ...", by
// rule; "none" when there are none.
func verdictList(vs map[string]int) string {
	if len(vs) == 0 {
		return "none"
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(vs)) {
		out = append(out, fmt.Sprintf("%s ×%d", k, vs[k]))
	}
	return strings.Join(out, ", ")
}

// pairedCPURatio is pairedRatio over CPU time: the median over runs i of
// a[i].CPU / b[i].CPU.
func pairedCPURatio(a, b []sample) float64 {
	var rs []float64
	for i := range a {
		if i < len(b) && b[i].CPU > 0 {
			rs = append(rs, float64(a[i].CPU)/float64(b[i].CPU))
		}
	}
	return benchkit.Median(rs)
}
