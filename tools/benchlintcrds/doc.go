// Command benchlintcrds benchmarks `kubeplan lint` against kubeconform
// v0.8.0 on a CRD-heavy corpus of the shape of rendered kubeflow/manifests,
// offline. It is what `make bench-lint-crds` runs:
//
//	go run ./tools/benchlintcrds [-runs 5] [-dir .bench/lint-crds] [-doc docs/benchmarks.md] [-kubeplan PATH] [-generate-only]
//
// Steps, one file each:
//
//   - schema.go, instance.go, corpus.go: a deterministic corpus of 100
//     CustomResourceDefinitions (a quarter with two versions of one
//     schema) whose openAPIV3Schemas embed pod templates, probes, volumes
//     and replica specs with descriptions and x-kubernetes-validations
//     rules, four to a component file beside its controller's built-in
//     objects; and 163 application files of custom resources of 90 of
//     those kinds (the other 10 have none) with built-in objects. A few
//     custom resources are invalid on purpose, one kind of defect
//     breaking only a CEL rule.
//   - main.go: kubeconform's own scripts/openapi2jsonschema.py (from the
//     module cache) turns the corpus's CRDs into kubeconform's schemas;
//     then kubeconform, kubeplan with CEL and kubeplan without CEL
//     (rules: {crd-validation: off}) run alternately after a warm-up each.
//   - measure.go, report.go: what each found, wall time, CPU and peak RSS,
//     ratios to kubeconform, and the Markdown section.
//
// bench_test.go lints the same corpus in-process, for profiling.
package main
