package main

import (
	"github.com/kubeplan/kubeplan/internal/benchkit"

	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// applySectionTitle is the heading of the section -mode apply -doc rewrites.
const applySectionTitle = "## apply: kubeplan apply vs kubectl apply --server-side --prune --applyset"

// The scenarios of one run, in order.
const (
	scFirst = "first" // first apply into an empty namespace
	scNoop  = "noop"  // the same apply again
	scPrune = "prune" // the corpus without 100 ConfigMaps: apply + prune
)

var scenarios = []string{scFirst, scNoop, scPrune}

// applyResult is everything one apply benchmark found.
type applyResult struct {
	When                  time.Time
	Machine               benchkit.Machine
	LoadBefore, LoadAfter string
	Runs                  int
	Corpus                corpusSet
	PruneDir              string   // the corpus without the removed ConfigMaps
	Removed               []string // "ConfigMap/name"
	KubeplanVersion       string
	KubectlVersion        string
	ServerVersion         string
	Commands              map[string]string
	Rounds                []*applyRound
	Anatomy               []*applyAnatomy // first, noop, prune
	Profiles              []string
	Deletes               []time.Duration // deleting a round's namespaces
}

// runApplyBench is -mode apply: kubeplan apply against kubectl apply
// --server-side --force-conflicts --prune --applyset and a raw client-go
// loop, each in fresh namespaces, alternating.
func runApplyBench(o options, root string) error {
	if o.from != "" {
		res, err := loadApplyResult(o.from)
		if err != nil {
			return err
		}
		return reportApply(res, o, root)
	}
	res := &applyResult{When: time.Now(), Machine: benchkit.DescribeMachine(root), Runs: o.runs, Commands: map[string]string{}}
	s := smallSpec
	s.Seed = o.seed
	cs := &res.Corpus
	cs.Dir = fmt.Sprintf("corpus-%d", s.objects())
	info, generated, err := ensureCorpus(filepath.Join(o.dir, cs.Dir), s)
	if err != nil {
		return fmt.Errorf("generating the corpus: %w", err)
	}
	cs.Info = info
	step("corpus %s: %d objects in %d files (%.1f MiB)%s", benchkit.Rel(root, filepath.Join(o.dir, cs.Dir)), s.objects(), info.Files,
		float64(info.Bytes)/(1<<20), map[bool]string{true: ", generated", false: ", up to date"}[generated])
	res.PruneDir = fmt.Sprintf("%s-minus%d", cs.Dir, pruneCount)
	if res.Removed, err = writeWithout(filepath.Join(o.dir, cs.Dir), filepath.Join(o.dir, res.PruneDir), pruneCount); err != nil {
		return err
	}
	defer os.RemoveAll(filepath.Join(o.dir, res.PruneDir))
	step("corpus %s: the same without %d ConfigMaps (%s, ...)", res.PruneDir, len(res.Removed), res.Removed[0])

	bb, err := startBench(root, func() { os.RemoveAll(filepath.Join(o.dir, res.PruneDir)) })
	if err != nil {
		return err
	}
	c, kpBin := bb.cluster, bb.kubeplan
	defer c.Stop()
	res.KubeplanVersion, res.KubectlVersion, res.ServerVersion = bb.kubeplanVersion, bb.kubectlVersion, bb.serverVersion
	b, err := newApplyBench(c, o, kpBin, res)
	if err != nil {
		return err
	}
	res.LoadBefore = benchkit.LoadAverage()
	step("warm-up: one first apply of each tool (load average %s)", res.LoadBefore)
	if _, err := b.round(0); err != nil {
		return err
	}
	for i := 1; i <= o.runs; i++ {
		r, err := b.round(i)
		if err != nil {
			return err
		}
		res.Rounds = append(res.Rounds, r)
	}
	if err := b.anatomy(); err != nil {
		return fmt.Errorf("in-process apply: %w", err)
	}
	res.LoadAfter = benchkit.LoadAverage()
	if err := c.Stop(); err != nil {
		step("stopping the cluster: %v", err)
	}
	saved := filepath.Join(o.dir, "apply-result.json")
	if err := saveApplyResult(saved, res); err != nil {
		return err
	}
	step("saved the result in %s (render it again with -mode apply -from %s)", benchkit.Rel(root, saved), benchkit.Rel(root, saved))
	return reportApply(res, o, root)
}

// reportApply prints the section and, with -doc, writes it.
func reportApply(res *applyResult, o options, root string) error {
	return benchkit.Publish(root, o.doc, applySectionTitle, res.markdown(), step)
}

func saveApplyResult(path string, res *applyResult) error {
	data, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

func loadApplyResult(path string) (*applyResult, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var res applyResult
	if err := json.Unmarshal(data, &res); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &res, nil
}
