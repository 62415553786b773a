// Command benchlint benchmarks `kubeplan lint` against kubeconform v0.8.0 on
// the same generated corpus, with the same schemas, offline. It is what
// `make bench-lint` runs:
//
//	go run ./tools/benchlint [-runs 5] [-findings-runs 3] [-dir .bench/lint] [-resources 20000] [-files 2000] [-doc docs/benchmarks.md]
//
// Steps, one file each:
//
//   - corpus.go, objects.go, widget.go: a deterministic, seeded corpus of
//     Deployments, Services, ConfigMaps and Widget custom resources, the
//     Widget CustomResourceDefinition alone in its own file, and about 0.5%
//     invalid objects (replicas: three, unknown fields, a CR with a wrong
//     type, an enum or a required field violated). ensureCorpus regenerates
//     it only when it is missing or the parameters changed, which
//     params.go records beside it (corpus.json).
//
//   - crdschema.go: the Widget openAPIV3Schema converted to the strict JSON
//     schema kubeconform expects (widget-example-v1.json), next to the
//     built-in schemas kubeplan extracts (kubeapi.Dir()), so both tools use
//     the same schemas.
//
//   - tools.go: rebuilds bin/kubeplan and installs bin/kubeconform from the
//     Go module proxy when it is missing (bin/ is not committed).
//
//   - measure.go: runs a tool as a child process and records wall time,
//     user+sys CPU and peak RSS (rusage Maxrss).
//
//   - detect.go: reads both tools' JSON output and compares the invalid
//     objects and files they report with what the generator made invalid.
//
//   - stats.go, report.go, machine.go: medians, ratios, the PASS/FAIL
//     verdict against the target (kubeplan wall <= 0.5x kubeconform's, peak
//     RSS <= 1.0x), and the Markdown section written into docs/benchmarks.md
//     with -doc.
//
//   - findings.go: the findings variant, after the comparison: the corpus
//     five times over (every object five times, the CRD once: 80% of the
//     objects are duplicate-object findings) against five copies with
//     renamed namespaces (no duplicates), kubeplan alone; the target is a
//     peak RSS at most 2x with the findings (-findings-runs 0 skips it).
//
// Runs alternate (kubeconform, kubeplan, kubeconform, ...) after one
// warm-up of each, so that load from other processes hits both alike; the
// wall ratio is the median of the per-pair ratios.
//
// bench_test.go lints the same corpus in-process, as the CLI does
// (lint.Check (streamed)), for profiling with
// go test -cpuprofile; see docs/benchmarks.md.
package main
