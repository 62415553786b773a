package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/kubeplan/kubeplan/internal/benchkit"
	"github.com/kubeplan/kubeplan/internal/kubeapi"
)

func main() { benchkit.Main("benchhelm", run) }

func run(args []string) error {
	fs := flag.NewFlagSet("benchhelm", flag.ContinueOnError)
	runs := fs.Int("runs", 10, "timed runs of each side per scenario, alternating, after one warm-up each")
	list := fs.String("scenarios", "synthetic,kube-prometheus-stack", "the scenarios to measure, comma-separated")
	kpBinFlag := fs.String("kubeplan", "", "kubeplan binary to measure instead of building bin/kubeplan (an older build, for before/after)")
	var doc string
	benchkit.DocFlag(fs, &doc, sectionTitle)
	root, err := benchkit.Start(fs, args, runs)
	if err != nil {
		return err
	}
	picked, err := pickScenarios(*list)
	if err != nil {
		return err
	}
	builtin, err := kubeapi.Dir()
	if err != nil {
		return fmt.Errorf("the embedded schemas: %w", err)
	}

	kpBin := *kpBinFlag
	if kpBin == "" {
		step("building bin/kubeplan")
		if kpBin, err = benchkit.BuildKubeplan(root); err != nil {
			return err
		}
	} else if kpBin, err = filepath.Abs(kpBin); err != nil {
		return err
	}
	step("kubeconform %s in %s", kubeconform.Version, filepath.Dir(kubeconform.Bin))
	kcBin, err := kubeconform.Install(root)
	if err != nil {
		return err
	}
	step("helm %s in %s (the first build takes a few minutes)", helm.Version, filepath.Dir(helm.Bin))
	helmBin, err := helm.Install(root)
	if err != nil {
		return err
	}
	env := benchEnv{root: root, builtin: builtin, kpBin: kpBin, kcBin: kcBin, helmBin: helmBin,
		machine: benchkit.DescribeMachine(root), kpVersion: benchkit.ToolVersion(kpBin, "version")}
	var results []*result
	for _, sc := range picked {
		res, err := env.measure(sc, *runs)
		if err != nil {
			return fmt.Errorf("%s: %w", sc.Name, err)
		}
		results = append(results, res)
	}
	return benchkit.Publish(root, doc, sectionTitle, section(results), step)
}

// benchEnv is what every scenario shares: the tools and where they run.
type benchEnv struct {
	root, builtin         string
	kpBin, kcBin, helmBin string
	machine               benchkit.Machine
	kpVersion             string
}

// measure runs one scenario: the commands, a warm-up of each that checks
// what it found, then runs alternating.
func (e benchEnv) measure(sc scenario, runs int) (*result, error) {
	chartDir := benchkit.Under(e.root, sc.Chart)
	if !benchkit.FileExists(filepath.Join(chartDir, "Chart.yaml")) {
		return nil, fmt.Errorf("%s: no Chart.yaml", chartDir)
	}
	rel := benchkit.Rel(e.root, chartDir)
	locations := []string{filepath.Join(e.builtin, kubeapi.FileTemplate)}
	template := "template"
	res := &result{Scenario: sc, When: time.Now(), Machine: e.machine, Chart: rel,
		HelmVersion: helm.Version, KCVersion: kubeconform.Version, KPVersion: e.kpVersion}
	res.Templates, res.Subcharts = countTemplates(chartDir)
	if sc.Real {
		crds, err := crdFiles(chartDir)
		if err != nil {
			return nil, err
		}
		res.CRDFiles = len(crds)
		if len(crds) > 0 {
			out := filepath.Join(e.root, ".bench", "helm", "kc-schemas-"+sc.Name)
			step("%s: kubeconform's schemas for %d CRD files (openapi2jsonschema.py) in %s", sc.Name, len(crds), benchkit.Rel(e.root, out))
			if err := openAPI2JSONSchema(crds, out); err != nil {
				return nil, err
			}
			res.CRDSchemas = benchkit.Rel(e.root, out)
			locations = append(locations, filepath.Join(out, kubeapi.FileTemplate))
		}
		template = "template --include-crds --skip-tests"
	}
	pipeline := fmt.Sprintf(pipefail+"%s %s %s %s | %s -strict -summary -n %d", shellQuote(e.helmBin), template, sc.Release,
		shellQuote(rel), shellQuote(e.kcBin), runtime.NumCPU())
	for _, l := range locations {
		pipeline += " -schema-location " + shellQuote(l)
	}
	peer := tool{Name: "helm template | kubeconform", Bin: "bash", Args: []string{"-c", pipeline}, Dir: e.root, OKCodes: []int{0, 1}}
	kp := tool{Name: "kubeplan", Bin: e.kpBin, Dir: e.root, OKCodes: []int{0, 1}, Args: []string{"lint", "-o", "json", rel}}
	res.Peer, res.KP = benchkit.Shown(peer, e.root, e.builtin), benchkit.Shown(kp, e.root, e.builtin)

	res.LoadBefore = benchkit.LoadAverage()
	step("%s: warm-up (load average %s)", sc.Name, res.LoadBefore)
	_, out, err := peer.Run(0)
	if err != nil {
		return nil, err
	}
	if res.PeerFound, err = parsePeer(out); err != nil {
		return nil, err
	}
	step("  helm template | kubeconform: %s", res.PeerFound)
	if res.PeerFound.Resources == 0 || res.PeerFound.Invalid+res.PeerFound.Errors+res.PeerFound.Skipped > 0 {
		return nil, fmt.Errorf("helm template | kubeconform on %s: %s, want every rendered object valid (none skipped)", rel, res.PeerFound)
	}
	_, out, err = kp.Run(0)
	if err != nil {
		return nil, err
	}
	if res.KPFound, err = parseKubeplan(out); err != nil {
		return nil, err
	}
	step("  kubeplan lint: %s", res.KPFound)
	if res.KPFound.Objects == 0 {
		step("  kubeplan does not render charts yet (0 objects from %s): timing the helm and kubeconform side alone", rel)
	} else if n := res.KPFound.Objects; n != res.PeerFound.Resources {
		return nil, fmt.Errorf("kubeplan read %d objects from %s, helm rendered %d: not the same objects", n, rel, res.PeerFound.Resources)
	}

	for i := 0; i < runs; i++ {
		a, _, err := peer.Run(0)
		if err != nil {
			return nil, err
		}
		res.PeerSamples = append(res.PeerSamples, a)
		line := fmt.Sprintf("%s run %d/%d: helm|kubeconform %s %s", sc.Name, i+1, runs, secs(a.Wall), secs(a.CPU))
		if res.KPFound.Objects > 0 {
			b, _, err := kp.Run(0)
			if err != nil {
				return nil, err
			}
			res.KPSamples = append(res.KPSamples, b)
			line += fmt.Sprintf(", kubeplan %s %s (%.2fx)", secs(b.Wall), secs(b.CPU), benchkit.Div(float64(b.Wall), float64(a.Wall)))
		}
		step("%s", line)
	}
	res.LoadAfter = benchkit.LoadAverage()
	return res, nil
}

// countTemplates counts the template files (.yaml under a templates/
// directory, at any depth) of the chart and its subcharts, and the
// subcharts (directories of charts/, at any depth).
func countTemplates(dir string) (templates, subcharts int) {
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		parts := strings.Split(filepath.ToSlash(rel), "/")
		switch {
		case d.IsDir() && len(parts) >= 2 && parts[len(parts)-2] == "charts":
			subcharts++
		case !d.IsDir() && strings.HasSuffix(p, ".yaml") && slices.Contains(parts[:len(parts)-1], "templates"):
			templates++
		}
		return nil
	})
	return templates, subcharts
}

// pipefail makes the pipeline fail when helm does.
const pipefail = "set -o pipefail; "

func shellQuote(s string) string {
	if !strings.ContainsAny(s, " '\"$\\`{}") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// step prints a progress line.
var step = benchkit.Stepper("benchhelm")

func secs(d time.Duration) string { return fmt.Sprintf("%.3fs", d.Seconds()) }
