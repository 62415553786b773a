package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/kubeplan/kubeplan/internal/benchkit"
	"github.com/kubeplan/kubeplan/internal/kubeapi"
)

func main() { benchkit.Main("benchhelm", run) }

func run(args []string) error {
	fs := flag.NewFlagSet("benchhelm", flag.ContinueOnError)
	runs := fs.Int("runs", 10, "timed runs of each side, alternating, after one warm-up each")
	chart := fs.String("chart", "testdata/charts/bench", "the chart (relative to the module root)")
	var doc string
	benchkit.DocFlag(fs, &doc, sectionTitle)
	root, err := benchkit.Start(fs, args, runs)
	if err != nil {
		return err
	}
	chartDir := benchkit.Under(root, *chart)
	if !benchkit.FileExists(filepath.Join(chartDir, "Chart.yaml")) {
		return fmt.Errorf("%s: no Chart.yaml", chartDir)
	}
	builtin, err := kubeapi.Dir()
	if err != nil {
		return fmt.Errorf("the embedded schemas: %w", err)
	}

	step("building bin/kubeplan")
	kpBin, err := benchkit.BuildKubeplan(root)
	if err != nil {
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
	rel := benchkit.Rel(root, chartDir)
	pipeline := fmt.Sprintf(pipefail+"%s template bench %s | %s -strict -summary -n %d -schema-location %s",
		shellQuote(helmBin), shellQuote(rel), shellQuote(kcBin), runtime.NumCPU(), shellQuote(filepath.Join(builtin, kubeapi.FileTemplate)))
	peer := tool{Name: "helm template | kubeconform", Bin: "bash", Args: []string{"-c", pipeline}, Dir: root, OKCodes: []int{0, 1}}
	kp := tool{Name: "kubeplan", Bin: kpBin, Dir: root, OKCodes: []int{0, 1}, Args: []string{"lint", "-o", "json", rel}}

	res := &result{When: time.Now(), Machine: benchkit.DescribeMachine(root), Chart: rel,
		Templates: countTemplates(chartDir), Peer: benchkit.Shown(peer, root, builtin), KP: benchkit.Shown(kp, root, builtin),
		HelmVersion: helm.Version, KCVersion: kubeconform.Version, KPVersion: benchkit.ToolVersion(kpBin, "version")}

	res.LoadBefore = benchkit.LoadAverage()
	step("warm-up (load average %s)", res.LoadBefore)
	_, out, err := peer.Run(0)
	if err != nil {
		return err
	}
	if res.PeerFound, err = parsePeer(out); err != nil {
		return err
	}
	step("  helm template | kubeconform: %s", res.PeerFound)
	if res.PeerFound.Resources == 0 || res.PeerFound.Invalid+res.PeerFound.Errors > 0 {
		return fmt.Errorf("helm template | kubeconform on %s: %s, want every rendered object valid", rel, res.PeerFound)
	}
	_, out, err = kp.Run(0)
	if err != nil {
		return err
	}
	if res.KPFound, err = parseKubeplan(out); err != nil {
		return err
	}
	step("  kubeplan lint: %s", res.KPFound)
	if n := res.KPFound.Objects; n > 0 && n != res.PeerFound.Resources {
		step("  warning: kubeplan read %d objects, helm rendered %d", n, res.PeerFound.Resources)
	}
	if res.KPFound.Objects == 0 {
		step("  kubeplan does not render charts yet (0 objects from %s): timing the helm and kubeconform side alone", rel)
	}

	for i := 0; i < *runs; i++ {
		a, _, err := peer.Run(0)
		if err != nil {
			return err
		}
		res.PeerSamples = append(res.PeerSamples, a)
		line := fmt.Sprintf("run %d/%d: helm|kubeconform %s %s", i+1, *runs, secs(a.Wall), secs(a.CPU))
		if res.KPFound.Objects > 0 {
			b, _, err := kp.Run(0)
			if err != nil {
				return err
			}
			res.KPSamples = append(res.KPSamples, b)
			line += fmt.Sprintf(", kubeplan %s %s", secs(b.Wall), secs(b.CPU))
		}
		step("%s", line)
	}
	res.LoadAfter = benchkit.LoadAverage()
	return benchkit.Publish(root, doc, sectionTitle, res.markdown(), step)
}

// countTemplates counts the template files of the chart and its subcharts.
func countTemplates(dir string) int {
	n := 0
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Base(filepath.Dir(p)) == "templates" && strings.HasSuffix(p, ".yaml") {
			n++
		}
		return nil
	})
	return n
}

// pipefail makes the pipeline fail when helm does.
const pipefail = "set -o pipefail; "

func shellQuote(s string) string {
	if !strings.ContainsAny(s, " '\"$\\`") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// step prints a progress line.
var step = benchkit.Stepper("benchhelm")

func secs(d time.Duration) string { return fmt.Sprintf("%.3fs", d.Seconds()) }
