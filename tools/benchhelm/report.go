package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/kubeplan/kubeplan/internal/benchkit"
)

// sectionTitle is the heading of the benchmark's section in docs/benchmarks.md.
const sectionTitle = "## helm: kubeplan lint CHART vs helm template | kubeconform"

// target is the verdict's bound: kubeplan's median wall time at most this
// many times the pipeline's.
const target = 1.0

// result is one scenario of the benchmark.
type result struct {
	Scenario               scenario
	When                   time.Time
	Machine                benchkit.Machine
	Chart                  string
	Templates, Subcharts   int
	CRDFiles               int
	CRDSchemas             string // where kubeconform's CRD schemas are, "" without
	Peer, KP               tool
	HelmVersion, KCVersion string
	KPVersion              string
	PeerFound              peerFound
	KPFound                kpFound
	PeerSamples, KPSamples []sample
	LoadBefore, LoadAfter  string
}

// ratio is the median of the per-run wall ratios kubeplan/pipeline.
func (r *result) ratio() float64 {
	var rs []float64
	for i := range r.KPSamples {
		rs = append(rs, benchkit.Div(float64(r.KPSamples[i].Wall), float64(r.PeerSamples[i].Wall)))
	}
	return benchkit.Median(rs)
}

// cpuRatio is the median of the per-run CPU (user+system) ratios
// kubeplan/pipeline: on a shared machine, less sensitive to the load than
// wall time (a pipeline of two processes gets two shares of a busy CPU).
func (r *result) cpuRatio() float64 {
	var rs []float64
	for i := range r.KPSamples {
		rs = append(rs, benchkit.Div(float64(r.KPSamples[i].CPU), float64(r.PeerSamples[i].CPU)))
	}
	return benchkit.Median(rs)
}

// verdict is PASS or FAIL against target; "" without kubeplan runs.
func (r *result) verdict() string {
	switch {
	case len(r.KPSamples) == 0:
		return ""
	case r.ratio() > target:
		return "FAIL"
	}
	return "PASS"
}

// section is the section written into docs/benchmarks.md: the verdict of
// each scenario, then each one's table and commands.
func section(rs []*result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n", sectionTitle)
	fmt.Fprintf(&b, "Rendering and linting one chart offline, with the same schemas: `kubeplan lint -o json CHART` against `helm template CHART | kubeconform -strict -summary`.\n")
	fmt.Fprintf(&b, "Target: kubeplan's wall time <= %.1fx the pipeline's (median of per-run ratios) in every scenario. `make bench-helm` (tools/benchhelm; `-scenarios` picks some, `-kubeplan PATH` measures another build).\n\n", target)
	for _, r := range rs {
		if v := r.verdict(); v != "" {
			fmt.Fprintf(&b, "- **%s: %.2fx, %s** (CPU: %.2fx)\n", r.Scenario.Name, r.ratio(), v, r.cpuRatio())
		} else {
			fmt.Fprintf(&b, "- **%s: not measured** (kubeplan does not render charts yet)\n", r.Scenario.Name)
		}
	}
	for _, r := range rs {
		b.WriteString("\n")
		b.WriteString(r.markdown())
	}
	return b.String()
}

// markdown is one scenario's part of the section.
func (r *result) markdown() string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w("### %s\n\n", orName(r.Scenario.Name))
	w("`%s`: %s; %d templates, %d subcharts, %d objects rendered.", r.Chart, orName(r.Scenario.About), r.Templates, r.Subcharts, r.PeerFound.Resources)
	if r.CRDSchemas != "" {
		w(" kubeconform is given the built-in schemas and the strict schemas kubeconform's own `scripts/openapi2jsonschema.py` makes from the chart's %d CRD files (`FILENAME_FORMAT={kind}-{group}-{version}`, into `%s`); kubeplan reads the CRDs from the chart itself. helm template leaves out the chart's test hooks (`--skip-tests`), as kubeplan does.", r.CRDFiles, r.CRDSchemas)
	}
	w(" %d runs each, alternating, after a warm-up.\n\n", len(r.PeerSamples))
	w("| | median wall | min wall | median CPU | peak RSS |\n|---|---|---|---|---|\n")
	row := func(name string, ss []sample) {
		s := benchkit.Summarize(ss)
		w("| %s | %s | %s | %s | %.0f MiB |\n", name, secs(s.MedianWall), secs(s.MinWall), secs(s.MedianCPU), float64(s.PeakRSS)/1024)
	}
	row(fmt.Sprintf("helm %s template \\| kubeconform %s", r.HelmVersion, r.KCVersion), r.PeerSamples)
	if len(r.KPSamples) > 0 {
		row("kubeplan lint", r.KPSamples)
		w("\n**kubeplan / pipeline, wall: %.2fx (median of per-run ratios): %s.** CPU (user+system): %.2fx. Same objects: kubeplan %s; kubeconform: %s.\n", r.ratio(), r.verdict(), r.cpuRatio(), r.KPFound, r.PeerFound)
	} else {
		w("| kubeplan lint | not measured | | | |\n")
		w("\n**kubeplan does not render charts yet**: `kubeplan lint %s` read %d objects (%d files). No ratio until it does; kubeconform: %s.\n",
			r.Chart, r.KPFound.Objects, r.KPFound.Files, r.PeerFound)
	}
	w("\n- pipeline: `%s`\n", strings.TrimPrefix(r.Peer.Args[len(r.Peer.Args)-1], pipefail))
	w("- kubeplan: `%s` (%s)\n", r.KP.CommandLine(), r.KPVersion)
	mc := r.Machine
	w("- Machine: %d CPUs (%s), %s RAM, %s, %s; commit %s; %s; load average %s before, %s after.\n",
		mc.NumCPU, mc.CPUModel, mc.MemTotal, mc.Kernel, mc.GoVersion, mc.Commit, r.When.UTC().Format("2006-01-02 15:04 UTC"), r.LoadBefore, r.LoadAfter)
	return b.String()
}

func orName(s string) string {
	if s == "" {
		return "chart"
	}
	return s
}
