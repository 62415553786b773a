package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/kubeplan/kubeplan/internal/benchkit"
)

const sectionTitle = "## lint: what the pod-security rule costs"

// The two kubeplan.yaml files the variants read (--config).
const (
	ruleOff    = "rules:\n  pod-security: off\n"
	withLevels = "podSecurity:\n  enforce: baseline\n  warn: restricted\n  audit: restricted\n"
)

func main() { benchkit.Main("benchlintpsa", run) }

func run(args []string) error {
	fs := flag.NewFlagSet("benchlintpsa", flag.ContinueOnError)
	runs := fs.Int("runs", 5, "timed runs of each variant, alternating, after one warm-up each")
	budget := fs.Float64("budget", 1.15, "the most the rule may cost, as a ratio of the wall time with the rule off")
	var doc string
	benchkit.DocFlag(fs, &doc, sectionTitle)
	root, err := benchkit.Start(fs, args, runs)
	if err != nil {
		return err
	}
	benchDir, cfgDir, err := benchkit.LintCorpus(root, "lint-psa", step)
	if err != nil {
		return err
	}
	offCfg, onCfg := filepath.Join(cfgDir, "off.yaml"), filepath.Join(cfgDir, "levels.yaml")
	if err := os.WriteFile(offCfg, []byte(ruleOff), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(onCfg, []byte(withLevels), 0o644); err != nil {
		return err
	}
	// The corpus's Deployments meet "restricted": a few that break
	// "baseline" prove the rule judged, in both variants' input.
	bad := filepath.Join(cfgDir, "privileged.yaml")
	if err := os.WriteFile(bad, []byte(privileged(planted)), 0o644); err != nil {
		return err
	}
	step("building bin/kubeplan")
	kpBin, err := benchkit.BuildKubeplan(root)
	if err != nil {
		return err
	}
	off := benchkit.Tool{Name: "kubeplan-psa-off", Bin: kpBin, Dir: benchDir, OKCodes: []int{0, 1}, Args: []string{"lint", "-o", "json", "--config", offCfg, bad, "corpus"}}
	on := off
	on.Name = "kubeplan-psa-levels"
	on.Args = []string{"lint", "-o", "json", "--config", onCfg, bad, "corpus"}

	step("warm-up")
	_, out0, err := off.Run(0)
	if err != nil {
		return err
	}
	_, out1, err := on.Run(0)
	if err != nil {
		return err
	}
	const finding = `"rule": "pod-security"`
	f0, f1 := strings.Count(string(out0), finding), strings.Count(string(out1), finding)
	if f0 != 0 || f1 < planted {
		return fmt.Errorf("want pod-security findings for each of the %d planted Deployments with levels set and none with the rule off: %d with the rule off, %d with levels", planted, f0, f1)
	}
	so, sl, err := benchkit.Alternate(off, on, cfgDir, *runs, func(i int, a, b benchkit.Sample) {
		step("run %d/%d: rule off %.2fs %d MiB, levels set %.2fs %d MiB", i+1, *runs, a.Wall.Seconds(), a.MaxRSS/1024, b.Wall.Seconds(), b.MaxRSS/1024)
	})
	if err != nil {
		return err
	}
	ratio := benchkit.Div(float64(sl.MedianWall), float64(so.MedianWall))
	verdict := "PASS"
	if ratio > *budget {
		verdict = "FAIL"
	}
	m := benchkit.DescribeMachine(root)
	var md strings.Builder
	fmt.Fprintf(&md, "%s\n\n", sectionTitle)
	fmt.Fprintf(&md, "Command: `make bench-lint-pod-security` (`go run ./tools/benchlintpsa`; add `-doc docs/benchmarks.md` to rewrite this section).\n\n")
	fmt.Fprintf(&md, "The 20,000-object corpus of `make bench-lint` (%s; its 5,997 pod templates meet `restricted`) and %d planted\n", benchkit.Rel(root, filepath.Join(benchDir, "corpus")), planted)
	fmt.Fprintf(&md, "privileged Deployments (%s), linted by one kubeplan\n", benchkit.Rel(root, bad))
	fmt.Fprintf(&md, "build with the rule off (`rules: {pod-security: off}`) and with Pod Security levels set (`podSecurity: {enforce: baseline,\n")
	fmt.Fprintf(&md, "warn: restricted, audit: restricted}`), %d runs each, alternating, after a warm-up; %d pod-security findings with the\n", *runs, f1)
	fmt.Fprintf(&md, "levels (the planted Deployments' baseline errors and restricted warnings), none with the rule off.\n\n")
	md.WriteString(benchkit.PairTable("rule off", "levels set", so, sl) + "\n")
	fmt.Fprintf(&md, "Budget: the rule costs at most %.0f%% of lint's wall time: **%s** (%.3f×).\n\n", (*budget-1)*100, verdict, ratio)
	fmt.Fprintf(&md, "Machine: %d CPUs (%s), %s, %s; %s; kubeplan at %s.\n", m.NumCPU, m.CPUModel, m.MemTotal, m.GoVersion, time.Now().UTC().Format("2006-01-02"), m.Commit)
	md.WriteString(`
Only what the checks read of a pod template is converted to the API's PodSpec (its security contexts,
host namespaces, ports' hostPort, probe and lifecycle hosts, which volume sources it has, and the
AppArmor and seccomp annotations), and templates alike in that are converted once (the corpus's 5,997
pod templates are 2 such templates, as a generated corpus is: a real repository has more); each is judged by the API server's own evaluator
(k8s.io/pod-security-admission) once per distinct level among enforce, warn and audit, in the
goroutines that load the set; only the findings are kept. Before that (converting whole templates, each
mode on its own) the rule cost 1.32x CPU time on the same corpus; with the slimming but no cache, the
cost of a corpus whose every template differs, it cost 1.10x (4 runs each by hand, /usr/bin/time). The machine is shared (this run had
two other builds beside it), so wall times are noisy; CPU time is the steadier measure.
`)
	fmt.Println(md.String())
	if err := benchkit.Publish(root, doc, sectionTitle, md.String(), step); err != nil {
		return err
	}
	if verdict == "FAIL" {
		return fmt.Errorf("the pod-security rule costs %.3f× lint's wall time, over the budget of %.2f×", ratio, *budget)
	}
	return nil
}

// planted is how many Deployments break "baseline" (privileged.yaml).
const planted = 10

// privileged is n Deployments, each with a privileged container: one
// baseline violation apiece (enforce: an error).
func privileged(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `apiVersion: apps/v1
kind: Deployment
metadata:
  name: node-agent-%d
  namespace: platform
spec:
  selector:
    matchLabels: {app: node-agent-%d}
  template:
    metadata:
      labels: {app: node-agent-%d}
    spec:
      containers:
        - name: agent
          image: registry.example.com/platform/agent:2.1
          securityContext:
            privileged: true
---
`, i, i, i)
	}
	return b.String()
}

// step prints a progress line.
var step = benchkit.Stepper("benchlintpsa")
