package main

import (
	"github.com/kubeplan/kubeplan/internal/benchkit"

	"fmt"
	"strings"
	"time"
)

// sectionTitle is the heading of the section -doc rewrites.
const sectionTitle = "## lint: kubeplan vs kubeconform"

// makeCommand is how the benchmark is meant to be run.
const makeCommand = "make bench-lint"

// result is everything one benchmark run found.
type result struct {
	When                   time.Time
	Machine                benchkit.Machine
	LoadBefore, LoadAfter  string
	Manifest               *corpusManifest
	CorpusDir              string
	KC, KP                 tool
	KCVersion, KPVersion   string
	KCSamples, KPSamples   []sample
	Expected, KCDet, KPDet detection
}

// markdown renders the result as the docs/benchmarks.md section.
func (r *result) markdown() string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	kc, kp := summarize(r.KCSamples), summarize(r.KPSamples)
	q := compare(r.KPSamples, r.KCSamples)
	m := r.Manifest
	p := m.Params

	w("%s\n\n", sectionTitle)
	w("Command: `%s` (`go run ./tools/benchlint`; add `-doc docs/benchmarks.md` to rewrite this section).\n\n", makeCommand)
	w("Target: kubeplan takes at most %.1f× kubeconform's wall time and at most %.1f× its peak memory, while reporting line:column.\n\n",
		targetWallRatio, targetRSSRatio)
	w("**Result: %s** — wall %.2f× (%s), peak RSS %.2f× (%s).\n\n", verdict(q.pass()),
		q.Wall, verdict(q.wallOK()), q.RSS, verdict(q.rssOK()))

	w("| %d runs each, alternating, after one warm-up each | kubeconform %s | kubeplan | kubeplan / kubeconform |\n", len(r.KPSamples), benchkit.Kubeconform.Version)
	w("|---|---:|---:|---:|\n")
	w("| median wall | %s | %s | %.2f× |\n", secs(kc.MedianWall), secs(kp.MedianWall), q.WallMedian)
	w("| min wall | %s | %s | %.2f× |\n", secs(kc.MinWall), secs(kp.MinWall), q.WallMin)
	w("| median of per-pair wall ratios | | | **%.2f×** |\n", q.Wall)
	w("| median CPU (user+sys) | %s | %s | %.2f× |\n", secs(kc.MedianCPU), secs(kp.MedianCPU), q.CPU)
	w("| peak RSS (max over runs) | %s | %s | **%.2f×** |\n", mib(kc.PeakRSS), mib(kp.PeakRSS), q.RSS)
	w("| median RSS | %s | %s | %.2f× |\n\n", mib(kc.MedianRSS), mib(kp.MedianRSS), benchkit.Div(float64(kp.MedianRSS), float64(kc.MedianRSS)))

	w("Every run (wall / CPU / peak RSS), in the order they ran:\n\n")
	w("| pair | kubeconform | kubeplan | wall ratio |\n|---:|---|---|---:|\n")
	for i := range r.KPSamples {
		a, c := r.KPSamples[i], r.KCSamples[i]
		w("| %d | %s / %s / %s | %s / %s / %s | %.2f× |\n", i+1, secs(c.Wall), secs(c.CPU), mib(c.MaxRSS),
			secs(a.Wall), secs(a.CPU), mib(a.MaxRSS), benchkit.Div(float64(a.Wall), float64(c.Wall)))
	}
	w("\n")

	w("What each found (objects and files with an error; the corpus has %d invalid on purpose):\n\n", len(m.Invalid))
	w("| | planted | kubeconform | kubeplan |\n|---|---:|---:|---:|\n")
	w("| invalid objects | %d | %d | %d |\n", len(r.Expected.Objects), len(r.KCDet.Objects), len(r.KPDet.Objects))
	w("| invalid files | %d | %d | %d |\n", len(r.Expected.Files), len(r.KCDet.Files), len(r.KPDet.Files))
	w("| errors reported | | %d | %d |\n", r.KCDet.Reports, r.KPDet.Reports)
	w("| planted objects missed | | %d | %d |\n", len(diff(r.Expected.Objects, r.KCDet.Objects)), len(diff(r.Expected.Objects, r.KPDet.Objects)))
	w("| objects flagged but not planted | | %d | %d |\n\n", len(diff(r.KCDet.Objects, r.Expected.Objects)), len(diff(r.KPDet.Objects, r.Expected.Objects)))
	w("- kubeconform's summary: %s\n- kubeplan's summary: %s\n", r.KCDet.Summary, r.KPDet.Summary)
	if a, c := diff(r.KCDet.Files, r.KPDet.Files), diff(r.KPDet.Files, r.KCDet.Files); len(a)+len(c) == 0 {
		w("- Both tools agree on which files are invalid.\n")
	} else {
		w("- **They disagree** on %d files: only kubeconform flags %s; only kubeplan flags %s.\n", len(a)+len(c), list(a), list(c))
	}
	if a, c := diff(r.KCDet.Objects, r.KPDet.Objects), diff(r.KPDet.Objects, r.KCDet.Objects); len(a)+len(c) > 0 {
		w("- Objects flagged by one tool only: kubeconform %s; kubeplan %s.\n", list(a), list(c))
	}
	for _, e := range r.KPDet.Examples {
		w("- kubeplan: `%s`\n", e)
	}
	for _, e := range r.KCDet.Examples {
		w("- kubeconform: `%s`\n", e)
	}
	w("\n")

	w("Setup:\n\n")
	w("- Corpus: %d resources in %d files (%.1f MiB), seed %d, generated into `%s`: %s. The Widget CRD is alone in `%s`. Invalid on purpose: %s.\n",
		p.Resources, p.Files, float64(m.Bytes)/(1<<20), p.Seed, r.CorpusDir, countsText(m.Counts, m.Sizes), widgetCRDFile, defectsText(m.Invalid))
	w("- Schemas: both read the strict built-in schemas kubeplan extracts (`kubeapi.Dir()`, Kubernetes 1.37) and, for Widget, the CRD's openAPIV3Schema converted to a strict JSON schema (`%s`); kubeplan reads the CRD from the corpus itself.\n",
		crdSchemaFile(widgetGroup, widgetVersion, widgetKind))
	w("- kubeconform (%s): `%s`\n", r.KCVersion, r.KC.CommandLine())
	w("- kubeplan, built from the working tree (`kubeplan version`: %s): `%s`\n", r.KPVersion, r.KP.CommandLine())
	w("- Both run offline from `%s`, with the same parallelism (%d = number of CPUs); both exit 1 because of the invalid objects.\n", r.KP.Dir, r.Machine.NumCPU)
	mc := r.Machine
	w("- Machine: %d CPUs (%s), %s RAM, %s, %s; commit %s; %s.\n", mc.NumCPU, mc.CPUModel, mc.MemTotal, mc.Kernel, mc.GoVersion, mc.Commit, r.When.UTC().Format("2006-01-02 15:04 UTC"))
	if mc.Env != "" {
		w("- Environment: %s.\n", mc.Env)
	}
	w("- Load average (1 min) before/after: %s / %s. The machine is shared, so absolute times are noisy; the ratios come from alternating runs, which share the load.\n",
		r.LoadBefore, r.LoadAfter)
	w("- Wall time includes process start; CPU is user+sys of the child; peak RSS is `/usr/bin/time -f %%M` around each timed run (the rusage of a small parent: a child's `ru_maxrss` seen from this process is never below this process's own peak, which reading large outputs raises).\n")
	return b.String()
}

func verdict(ok bool) string {
	if ok {
		return "PASS"
	}
	return "FAIL"
}

func secs(d time.Duration) string { return fmt.Sprintf("%.2f s", d.Seconds()) }
func mib(kib int64) string        { return fmt.Sprintf("%.0f MiB", float64(kib)/1024) }

func list(keys []string) string {
	if len(keys) == 0 {
		return "none"
	}
	const max = 5
	s := strings.Join(keys[:min(len(keys), max)], ", ")
	if len(keys) > max {
		s += fmt.Sprintf(" and %d more", len(keys)-max)
	}
	return s
}

func countsText(counts map[string]int, sizes map[string]int64) string {
	var parts []string
	for _, k := range []string{"Deployment", "Service", "ConfigMap", widgetKind, "CustomResourceDefinition"} {
		if n := counts[k]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s (%.1f KiB each)", n, k, float64(sizes[k])/float64(n)/1024))
		}
	}
	return strings.Join(parts, ", ")
}

func defectsText(inv []invalidObject) string {
	n := map[string]int{}
	var order []string
	for _, i := range inv {
		k := i.Kind + " " + i.Defect
		if n[k] == 0 {
			order = append(order, k)
		}
		n[k]++
	}
	parts := make([]string, len(order))
	for i, k := range order {
		parts[i] = fmt.Sprintf("%d %s", n[k], k)
	}
	return strings.Join(parts, ", ")
}
