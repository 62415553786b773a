package main

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/kubeplan/kubeplan/internal/applyset"

	"github.com/kubeplan/kubeplan/internal/benchkit"
)

// The tools of the apply benchmark.
const (
	tKubectl  = "kubectl"
	tKubeplan = "kubeplan"
)

// applyRun is one timed run of one tool in one scenario.
type applyRun struct {
	Namespace string
	Sample    sample
	Outcome   applyOutcome
	Diff      stateDiff // the namespace's objects before and after
}

// applyRound is one run of everything, each tool in a fresh namespace.
type applyRound struct {
	N            int
	Order        []string                       // who went first
	Runs         map[string]map[string]applyRun // tool -> scenario -> run
	KubeplanWait applyRun                       // first apply with the default --wait
	RawApply     sample                         // 1,200 server-side applies, 16 in flight
	RawDryRun    sample                         // the same as dry-runs, before them (the all-or-nothing floor's first half)
	RawList      sample                         // LIST of the 3 resources
	RawDelete    sample                         // DELETE of the removed ConfigMaps, 16 in flight
	RawListed    int
}

// applyBench runs the rounds.
type applyBench struct {
	c     *cluster
	o     options
	kpBin string
	res   *applyResult
	in    *inspector
}

func newApplyBench(c *cluster, o options, kpBin string, res *applyResult) (*applyBench, error) {
	in, err := newInspector(c.AdminKubeconfig())
	if err != nil {
		return nil, err
	}
	b := &applyBench{c: c, o: o, kpBin: kpBin, res: res, in: in}
	res.Commands[tKubectl] = "KUBECTL_APPLYSET=true " + shown(b.kubectlApply("NS", res.Corpus.Dir), c)
	res.Commands[tKubeplan] = shown(b.kubeplanApply("NS", res.Corpus.Dir, false), c)
	res.Commands["kubeplan-wait"] = shown(b.kubeplanApply("NS", res.Corpus.Dir, true), c)
	return b, nil
}

func (b *applyBench) kubectlApply(ns, corpus string) tool {
	return tool{Name: "kubectl apply", Bin: "kubectl", Dir: b.o.dir, OKCodes: []int{0},
		Env: append(b.c.kubectlEnv(), "KUBECTL_APPLYSET=true"),
		Args: []string{"apply", "--server-side", "--force-conflicts", "--prune", "--applyset=" + applySetFlag,
			"-n", ns, "-f", corpus, "--kubeconfig", b.c.AdminKubeconfig()}}
}

func (b *applyBench) kubeplanApply(ns, corpus string, wait bool) tool {
	args := []string{"apply", "-n", ns, "--applyset", applySetFlag}
	if !wait {
		args = append(args, "--wait=false")
	}
	args = append(args, "--kubeconfig", b.c.AdminKubeconfig(), corpus)
	return tool{Name: "kubeplan apply", Bin: b.kpBin, Dir: b.o.dir, OKCodes: []int{0}, Args: args}
}

// corpusFor is the directory a scenario applies.
func (b *applyBench) corpusFor(sc string) string {
	if sc == scPrune {
		return b.res.PruneDir
	}
	return b.res.Corpus.Dir
}

// timed runs one tool in one scenario in ns, after the cluster went quiet,
// and checks what it did to the namespace.
func (b *applyBench) timed(name, sc, ns string, wait bool) (applyRun, error) {
	ctx := context.Background()
	t := b.kubeplanApply(ns, b.corpusFor(sc), wait)
	if name == tKubectl {
		t = b.kubectlApply(ns, b.corpusFor(sc))
	}
	b.c.settle()
	before, err := b.in.snapshot(ctx, ns)
	if err != nil {
		return applyRun{}, err
	}
	s, out, err := t.Run(b.c.PID())
	if err != nil {
		return applyRun{}, err
	}
	after, err := b.in.snapshot(ctx, ns)
	if err != nil {
		return applyRun{}, err
	}
	r := applyRun{Namespace: ns, Sample: s, Diff: diffSnapshots(before, after)}
	if name == tKubectl {
		r.Outcome = parseKubectlApply(out)
	} else if r.Outcome, err = parseKubeplanApply(out); err != nil {
		return r, err
	}
	// A first apply must have made every object and the parent: the
	// comparison means nothing otherwise. The no-op and prune checks are
	// reported, not enforced.
	if sc == scFirst {
		added := 0
		for _, k := range r.Diff.Added {
			if k != "ConfigMap/kube-root-ca.crt" { // published by a controller, maybe late
				added++
			}
		}
		if want := b.res.Corpus.Info.Spec.objects() + 1; added != want {
			return r, fmt.Errorf("%s in %s: %d objects appeared, want %d (the corpus and the ApplySet parent)", t.Name, ns, added, want)
		}
	}
	return r, nil
}

// round runs round n: kubectl in k-n and kubeplan in p-n through the three
// scenarios, alternating (who goes first alternates between rounds), then
// kubeplan with --wait in w-n and the raw loop in r-n. Round 0 is the
// warm-up: one first apply of each.
func (b *applyBench) round(n int) (*applyRound, error) {
	r := &applyRound{N: n, Runs: map[string]map[string]applyRun{tKubectl: {}, tKubeplan: {}}}
	r.Order = []string{tKubectl, tKubeplan}
	if n%2 == 0 {
		r.Order = []string{tKubeplan, tKubectl}
	}
	nsOf := map[string]string{tKubectl: fmt.Sprintf("k-%d", n), tKubeplan: fmt.Sprintf("p-%d", n)}
	if err := b.c.createNamespaces(nsOf[tKubectl], nsOf[tKubeplan]); err != nil {
		return nil, err
	}
	for _, sc := range scenarios {
		if n == 0 && sc != scFirst {
			break
		}
		for _, name := range r.Order {
			run, err := b.timed(name, sc, nsOf[name], false)
			if err != nil {
				return nil, err
			}
			r.Runs[name][sc] = run
			step("run %d, %s, %s: %s (%s; %d objects changed, %d removed)", n, sc, name, secs(run.Sample.Wall),
				run.Outcome.Summary, len(run.Diff.Changed), len(run.Diff.Removed))
		}
		if sc == scFirst {
			if err := b.c.waitAvailable(b.res.Corpus.Info.Spec.Deployments, nsOf[tKubectl], nsOf[tKubeplan]); err != nil {
				return nil, err
			}
		}
	}
	if err := b.deleteNamespaces(nsOf[tKubectl], nsOf[tKubeplan]); err != nil {
		return nil, err
	}
	if n == 0 {
		return r, nil
	}
	wNS, rNS := fmt.Sprintf("w-%d", n), fmt.Sprintf("r-%d", n)
	if err := b.c.createNamespaces(wNS, rNS); err != nil {
		return nil, err
	}
	run, err := b.timed(tKubeplan, scFirst, wNS, true)
	if err != nil {
		return nil, err
	}
	r.KubeplanWait = run
	step("run %d, first apply with --wait, kubeplan: %s", n, secs(run.Sample.Wall))
	if err := b.rawRound(r, rNS); err != nil {
		return nil, err
	}
	return r, b.deleteNamespaces(wNS, rNS)
}

// rawRound applies the corpus into ns with the raw loop, lists it, and
// deletes the ConfigMaps the prune scenario removes.
func (b *applyBench) rawRound(r *applyRound, ns string) error {
	ctx := context.Background()
	p, err := applyset.ParseParentFlag(applySetFlag, ns)
	if err != nil {
		return err
	}
	raw, err := newRawClient(b.c.AdminKubeconfig(), ns, filepath.Join(b.o.dir, b.res.Corpus.Dir), p.ID())
	if err != nil {
		return err
	}
	b.c.settle()
	if r.RawDryRun, err = benchkit.MeasureSelf(b.c.PID(), func() error { return raw.dryRunAll(ctx, rawApplyInFlight) }); err != nil {
		return err
	}
	if r.RawApply, err = benchkit.MeasureSelf(b.c.PID(), func() error { return raw.apply(ctx, rawApplyInFlight) }); err != nil {
		return err
	}
	if err := b.c.waitAvailable(b.res.Corpus.Info.Spec.Deployments, ns); err != nil {
		return err
	}
	if r.RawList, err = benchkit.MeasureSelf(b.c.PID(), func() (err error) { r.RawListed, err = raw.list(ctx); return err }); err != nil {
		return err
	}
	if r.RawDelete, err = benchkit.MeasureSelf(b.c.PID(), func() error { return raw.delete(ctx, b.res.Removed, rawApplyInFlight) }); err != nil {
		return err
	}
	step("run %d, raw client-go: %d dry-runs %s, %d applies %s, LIST %s (%d objects), %d deletes %s", r.N, len(raw.objects), secs(r.RawDryRun.Wall), len(raw.objects), secs(r.RawApply.Wall),
		ms(r.RawList.Wall), r.RawListed, len(b.res.Removed), ms(r.RawDelete.Wall))
	return nil
}

func (b *applyBench) deleteNamespaces(nss ...string) error {
	took, err := b.c.deleteNamespaces(nss...)
	if err != nil {
		return err
	}
	b.res.Deletes = append(b.res.Deletes, took)
	return nil
}

// anatomy runs the three scenarios once more in-process in namespace a-1,
// every request recorded (and, with -cpuprofile, profiled).
func (b *applyBench) anatomy() error {
	ns := "a-1"
	if err := b.c.createNamespaces(ns); err != nil {
		return err
	}
	for _, sc := range scenarios {
		b.c.settle()
		prof := profilePath(b.o.cpuProfile, sc)
		a, err := applyInProcess(b.c.AdminKubeconfig(), ns, filepath.Join(b.o.dir, b.corpusFor(sc)), sc, prof, b.c.PID())
		if err != nil {
			return fmt.Errorf("%s: %w", sc, err)
		}
		b.res.Anatomy = append(b.res.Anatomy, a)
		if prof != "" {
			b.res.Profiles = append(b.res.Profiles, prof)
		}
		step("in-process %s: %s (%s; %d writes)", sc, secs(a.Wall), a.Summary, a.Writes)
		if sc == scFirst {
			if err := b.c.waitAvailable(b.res.Corpus.Info.Spec.Deployments, ns); err != nil {
				return err
			}
		}
	}
	return b.deleteNamespaces(ns)
}
