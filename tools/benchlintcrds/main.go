package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/kubeplan/kubeplan/internal/benchkit"
	"github.com/kubeplan/kubeplan/internal/kubeapi"
)

func main() { benchkit.Main("benchlintcrds", run) }

func run(args []string) error {
	fs := flag.NewFlagSet("benchlintcrds", flag.ContinueOnError)
	runs := fs.Int("runs", 5, "timed runs of each command, alternating, after one warm-up each")
	dir := fs.String("dir", ".bench/lint-crds", "working directory (relative to the module root)")
	var doc string
	benchkit.DocFlag(fs, &doc, sectionTitle)
	kpBinFlag := fs.String("kubeplan", "", "kubeplan binary to measure instead of building bin/kubeplan (e.g. an older build, for before/after)")
	genOnly := fs.Bool("generate-only", false, "write the corpus and kubeconform's schemas, and stop (for profiling with bench_test.go)")
	realDir := fs.String("real", "", "measure on this directory of rendered kubeflow/manifests (tools/benchlintcrds/kubeflow.sh writes it) instead of the generated corpus; the working directory defaults to .bench/lint-crds-real")
	root, err := benchkit.Start(fs, args, runs)
	if err != nil {
		return err
	}
	title := sectionTitle
	if *realDir != "" {
		title = realSectionTitle
		if *dir == fs.Lookup("dir").DefValue {
			*dir += "-real"
		}
	}
	benchDir := benchkit.Under(root, *dir)

	// 1. The corpus, and kubeconform's schemas made from its CRDs by
	// kubeconform's own openapi2jsonschema.py.
	corpus := filepath.Join(benchDir, "corpus")
	var m *manifestInfo
	var crdFiles []string
	if *realDir != "" {
		if m, crdFiles, err = realCorpus(benchkit.Under(root, *realDir), corpus); err != nil {
			return err
		}
	} else {
		step("corpus: %s", corpus)
		if m, err = generate(corpus); err != nil {
			return fmt.Errorf("generating the corpus: %w", err)
		}
		if crdFiles, err = filepath.Glob(filepath.Join(corpus, "*component-*.yaml")); err != nil {
			return err
		}
	}
	step("  %d objects (%d CRDs, %d custom resources of %d kinds) in %d files, %.1f MiB (CRDs %.1f MiB)",
		m.Objects, m.CRDs, m.CRs, m.UsedKinds, m.Files, mibf(m.Bytes), mibf(m.CRDBytes))
	const kcSchemas = "kc-schemas"
	if err := openAPI2JSONSchema(crdFiles, filepath.Join(benchDir, kcSchemas)); err != nil {
		return err
	}
	if *genOnly {
		return nil
	}
	celOff := filepath.Join(benchDir, "cel-off.yaml")
	if err := os.WriteFile(celOff, []byte("rules:\n  crd-validation: off\n"), 0o644); err != nil {
		return err
	}
	builtin, err := kubeapi.Dir()
	if err != nil {
		return err
	}

	// 2. The tools.
	kpBin := *kpBinFlag
	if kpBin != "" {
		kpBin = benchkit.Under(root, kpBin) // the tools run in benchDir
	} else {
		step("building bin/kubeplan")
		if kpBin, err = benchkit.BuildKubeplan(root); err != nil {
			return err
		}
	}
	kcBin, err := benchkit.Kubeconform.Install(root)
	if err != nil {
		return err
	}
	n := fmt.Sprint(runtime.NumCPU())
	tools := []tool{
		{Name: "kubeconform", Bin: kcBin, Dir: benchDir, OKCodes: []int{0, 1}, Args: []string{
			"-strict", "-summary", "-output", "json", "-n", n,
			"-schema-location", filepath.Join(builtin, kubeapi.FileTemplate),
			"-schema-location", filepath.Join(kcSchemas, kubeapi.FileTemplate),
			"corpus",
		}},
		{Name: "kubeplan (CEL on)", Bin: kpBin, Dir: benchDir, OKCodes: []int{0, 1}, Args: []string{"lint", "-o", "json", "corpus"}},
		{Name: "kubeplan (CEL off)", Bin: kpBin, Dir: benchDir, OKCodes: []int{0, 1}, Args: []string{"lint", "-o", "json", "--config", "cel-off.yaml", "corpus"}},
	}
	res := &result{Title: title, When: time.Now(), Machine: benchkit.DescribeMachine(root), Corpus: m, Tools: tools,
		KPVersion: benchkit.ToolVersion(kpBin, "version"), Samples: make([][]sample, len(tools)), Found: make([]found, len(tools))}
	for i := range res.Tools {
		res.Shown = append(res.Shown, benchkit.Shown(tools[i], root, builtin))
	}

	// 3. Warm-up (which also reads what each found), then alternating runs.
	res.LoadBefore = benchkit.LoadAverage()
	for i, t := range tools {
		_, out, err := t.Run(0)
		if err != nil {
			return err
		}
		if res.Found[i], err = readFound(t.Name, out); err != nil {
			return err
		}
		step("warm-up %s: %d invalid objects", t.Name, res.Found[i].Invalid)
	}
	timedTools := make([]tool, len(tools))
	rssFiles := make([]string, len(tools))
	for i, t := range tools {
		timedTools[i], rssFiles[i] = benchkit.Timed(t, benchDir)
	}
	for r := 0; r < *runs; r++ {
		var line []string
		for i, t := range tools {
			s, _, err := benchkit.RunTimed(timedTools[i], rssFiles[i])
			if err != nil {
				return err
			}
			res.Samples[i] = append(res.Samples[i], s)
			line = append(line, fmt.Sprintf("%s %.2f s %d MiB", t.Name, s.Wall.Seconds(), s.MaxRSS/1024))
		}
		step("run %d/%d: %s", r+1, *runs, strings.Join(line, ", "))
	}
	res.LoadAfter = benchkit.LoadAverage()
	return benchkit.Publish(root, doc, title, res.markdown(), step)
}

// openAPI2JSONSchema runs kubeconform's scripts/openapi2jsonschema.py (from
// the module cache) over the corpus files holding CRDs, writing into out.
func openAPI2JSONSchema(files []string, out string) error {
	modcache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		return fmt.Errorf("go env GOMODCACHE: %w", err)
	}
	script := filepath.Join(strings.TrimSpace(string(modcache)), "github.com", "yannh", "kubeconform@"+benchkit.Kubeconform.Version, "scripts", "openapi2jsonschema.py")
	if _, err := os.Stat(script); err != nil {
		return fmt.Errorf("kubeconform's openapi2jsonschema.py: %w (go mod download %s@%s)", err, benchkit.Kubeconform.Module, benchkit.Kubeconform.Version)
	}
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	cmd := exec.Command("python3", append([]string{script}, files...)...)
	cmd.Dir = out
	cmd.Env = append(os.Environ(), "FILENAME_FORMAT={kind}-{group}-{version}")
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("openapi2jsonschema.py: %w: %s", err, benchkit.FirstLines(string(b), 5))
	}
	step("  kubeconform's schemas: %s (openapi2jsonschema.py)", out)
	return nil
}

func mibf(b int64) float64 { return float64(b) / (1 << 20) }

// step prints a progress line.
var step = benchkit.Stepper("benchlintcrds")
