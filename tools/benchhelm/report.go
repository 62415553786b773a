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

// result is one run of the benchmark.
type result struct {
	When                   time.Time
	Machine                benchkit.Machine
	Chart                  string
	Templates              int
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

// markdown is the section written into docs/benchmarks.md.
func (r *result) markdown() string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w("%s\n\n", sectionTitle)
	w("Rendering and linting one chart (`%s`: %d templates, 2 subcharts, %d objects rendered), offline, with the same schemas.\n",
		r.Chart, r.Templates, r.PeerFound.Resources)
	w("Target: kubeplan's median wall time <= %.1fx the pipeline's. `make bench-helm` (tools/benchhelm), %d runs each, alternating, after a warm-up.\n\n",
		target, len(r.PeerSamples))
	w("| | median wall | min wall | median CPU | peak RSS |\n|---|---|---|---|---|\n")
	row := func(name string, ss []sample) {
		s := benchkit.Summarize(ss)
		w("| %s | %s | %s | %s | %.0f MiB |\n", name, secs(s.MedianWall), secs(s.MinWall), secs(s.MedianCPU), float64(s.PeakRSS)/1024)
	}
	row(fmt.Sprintf("helm %s template \\| kubeconform %s", r.HelmVersion, r.KCVersion), r.PeerSamples)
	if len(r.KPSamples) > 0 {
		row("kubeplan lint", r.KPSamples)
		verdict := "PASS"
		if r.ratio() > target {
			verdict = "FAIL"
		}
		w("\n**kubeplan / pipeline, wall: %.2fx (median of per-run ratios): %s.** kubeplan: %s; kubeconform: %s.\n", r.ratio(), verdict, r.KPFound, r.PeerFound)
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
