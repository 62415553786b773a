package main

import (
	"github.com/kubeplan/kubeplan/internal/benchkit"

	"flag"
	"fmt"
	"path/filepath"
	"runtime"
	"time"

	"github.com/kubeplan/kubeplan/internal/kubeapi"
)

func main() { benchkit.Main("benchlint", run) }

func run(args []string) error {
	fs := flag.NewFlagSet("benchlint", flag.ContinueOnError)
	runs := fs.Int("runs", 5, "timed runs of each tool, alternating, after one warm-up each")
	dir := fs.String("dir", ".bench/lint", "working directory for the corpus and the CRD schema (relative to the module root)")
	resources := fs.Int("resources", 20000, "resources in the corpus, the CRD included")
	files := fs.Int("files", 2000, "files in the corpus, the CRD's own file included")
	seed := fs.Int64("seed", 1, "seed of the corpus generator")
	findingsRuns := fs.Int("findings-runs", 3, "runs of the findings variant (the corpus five times over, 80% duplicate-object findings, vs five renamed copies); 0 skips it")
	corpusOnly := fs.Bool("corpus-only", false, "generate the corpus (when missing or stale) and stop: the other lint benchmarks reuse it")
	var doc string
	benchkit.DocFlag(fs, &doc, sectionTitle)
	root, err := benchkit.Start(fs, args, runs)
	if err != nil {
		return err
	}
	benchDir := benchkit.Under(root, *dir)
	p := params{Resources: *resources, Files: *files, Seed: *seed, Generator: generatorVersion}
	if err := p.validate(); err != nil {
		return err
	}

	// 1. The corpus and the CRD's JSON schema.
	corpus := filepath.Join(benchDir, "corpus")
	step("corpus: %s", corpus)
	m, generated, err := ensureCorpus(corpus, p)
	if err != nil {
		return fmt.Errorf("generating the corpus: %w", err)
	}
	if generated {
		step("  generated %d resources in %d files (%.1f MiB), %d invalid", p.Resources, p.Files, float64(m.Bytes)/(1<<20), len(m.Invalid))
	} else {
		step("  up to date (%d resources in %d files)", p.Resources, p.Files)
	}
	if *corpusOnly {
		return nil
	}
	const crdSchemaDir = "crd-schemas"
	if err := writeCRDSchema(filepath.Join(benchDir, crdSchemaDir)); err != nil {
		return fmt.Errorf("writing the CRD schema: %w", err)
	}
	builtin, err := kubeapi.Dir()
	if err != nil {
		return err
	}

	// 2. The tools.
	step("building bin/kubeplan")
	kpBin, err := benchkit.BuildKubeplan(root)
	if err != nil {
		return err
	}
	step("kubeconform %s in bin/", benchkit.Kubeconform.Version)
	kcBin, err := benchkit.Kubeconform.Install(root)
	if err != nil {
		return err
	}
	n := fmt.Sprint(runtime.NumCPU())
	kc := tool{Name: "kubeconform", Bin: kcBin, Dir: benchDir, OKCodes: []int{0, 1}, Args: []string{
		"-strict", "-summary", "-output", "json", "-n", n,
		"-schema-location", filepath.Join(builtin, kubeapi.FileTemplate),
		"-schema-location", filepath.Join(crdSchemaDir, kubeapi.FileTemplate), // relative to benchDir
		"corpus",
	}}
	kp := tool{Name: "kubeplan", Bin: kpBin, Dir: benchDir, OKCodes: []int{0, 1}, Args: []string{"lint", "-o", "json", "corpus"}}

	res := &result{When: time.Now(), Machine: benchkit.DescribeMachine(root), Manifest: m, CorpusDir: benchkit.Rel(root, corpus),
		KC: benchkit.Shown(kc, root, builtin), KP: benchkit.Shown(kp, root, builtin), KCVersion: benchkit.Kubeconform.Version,
		KPVersion: benchkit.ToolVersion(kpBin, "version"), Expected: expectedDetection(m)}

	// 3. Warm-up (also checks what each found), then alternating runs.
	res.LoadBefore = benchkit.LoadAverage()
	step("warm-up (load average %s)", res.LoadBefore)
	if err := warmUp(res, kc, kp); err != nil {
		return err
	}
	kcT, kcRSS := benchkit.Timed(kc, benchDir)
	kpT, kpRSS := benchkit.Timed(kp, benchDir)
	for i := 0; i < *runs; i++ {
		a, _, err := benchkit.RunTimed(kcT, kcRSS)
		if err != nil {
			return err
		}
		b, _, err := benchkit.RunTimed(kpT, kpRSS)
		if err != nil {
			return err
		}
		res.KCSamples = append(res.KCSamples, a)
		res.KPSamples = append(res.KPSamples, b)
		step("run %d/%d: kubeconform %s %s %s, kubeplan %s %s %s", i+1, *runs, secs(a.Wall), secs(a.CPU), mib(a.MaxRSS), secs(b.Wall), secs(b.CPU), mib(b.MaxRSS))
	}
	res.LoadAfter = benchkit.LoadAverage()

	// 4. Report.
	if err := benchkit.Publish(root, doc, sectionTitle, res.markdown(), step); err != nil {
		return err
	}

	// 5. The findings variant: memory must not grow with findings.
	if *findingsRuns < 1 {
		return nil
	}
	step("findings variant: %d copies of the corpus, duplicated and distinct", copies)
	if err := makeCopies(corpus, filepath.Join(benchDir, "dup"), filepath.Join(benchDir, "distinct")); err != nil {
		return fmt.Errorf("copying the corpus: %w", err)
	}
	fr, err := measureFindings(kp, benchDir, *findingsRuns)
	if err != nil {
		return err
	}
	return benchkit.Publish(root, doc, findingsTitle, fr.markdown(), step)
}

// warmUp runs each tool once, untimed, and reads what they found.
func warmUp(res *result, kc, kp tool) error {
	_, out, err := kc.Run(0)
	if err != nil {
		return err
	}
	if res.KCDet, err = parseKubeconform(out, "corpus"); err != nil {
		return err
	}
	_, out, err = kp.Run(0)
	if err != nil {
		return err
	}
	res.KPDet, err = parseKubeplan(out, "corpus")
	return err
}

// step prints a progress line.
var step = benchkit.Stepper("benchlint")
