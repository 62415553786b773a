// Command benchlintcrds benchmarks `kubeplan lint` against kubeconform
// v0.8.0 on a CRD-heavy corpus of the shape of rendered kubeflow/manifests,
// offline. It is what `make bench-lint-crds` runs:
//
//	go run ./tools/benchlintcrds [-runs 5] [-dir .bench/lint-crds] [-doc docs/benchmarks.md] [-kubeplan PATH] [-generate-only]
//
// With -real DIR it measures the real thing instead (`make
// bench-lint-crds-real`): kubeflow/manifests' example/ rendered by
// kubeflow.sh, offline, from git mirrors of kubeflow/manifests and of the
// three repositories its kustomizations load remotely (see the script),
// one file per component and kind; real.go describes it.
//
// Steps, one file each:
//
//   - schema.go, instance.go, corpus.go: a deterministic corpus of 100
//     CustomResourceDefinitions (a quarter with two versions of one
//     schema) whose openAPIV3Schemas embed pod templates, probes, volumes
//     and replica specs with descriptions (wrapped over lines as kubectl
//     kustomize writes them) and x-kubernetes-validations rules, twelve to
//     a component file beside its controller's built-in objects; 163
//     application files of custom resources of 25 of those kinds (the
//     other 75 have none, as most of kubeflow's have none in its install)
//     with built-in objects; and last the controllers' Namespace with
//     pod-security labels. A few custom resources are invalid on purpose,
//     one kind of defect breaking only a CEL rule.
//   - main.go: kubeconform's own scripts/openapi2jsonschema.py (from the
//     module cache) turns the corpus's CRDs into kubeconform's schemas;
//     then kubeconform, kubeplan with CEL and kubeplan without CEL
//     (rules: {crd-validation: off}) run alternately after a warm-up each.
//   - measure.go, report.go: what each found, wall time, CPU and peak RSS,
//     ratios to kubeconform, and the Markdown section.
//
// bench_test.go lints the same corpora in-process, for profiling.
package main
