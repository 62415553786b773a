// Command benchhelm benchmarks rendering and linting a Helm chart:
// `kubeplan lint -o json CHARTDIR` (the chart rendered in-process) against
// `helm template CHARTDIR | kubeconform -strict -summary`, offline, with the
// same schemas (the ones kubeplan embeds, kubeapi.Dir()). It is what
// `make bench-helm` runs:
//
//	go run ./tools/benchhelm [-runs 10] [-scenarios synthetic,kube-prometheus-stack] [-kubeplan PATH] [-doc docs/benchmarks.md]
//
// Two scenarios (scenario.go), each with its own verdict:
//
//   - synthetic: testdata/charts/bench, a shop of six services (Deployment,
//     Service, ConfigMap, ServiceAccount, HorizontalPodAutoscaler each)
//     and two subcharts, a cache and a database (StatefulSet, Services,
//     ConfigMap, Secret, PodDisruptionBudget, NetworkPolicy, RBAC, a backup
//     CronJob and a pre-install migration Job hook): 50 templates.
//   - kube-prometheus-stack: a real chart, vendored with its subcharts
//     (testdata/charts/public/kube-prometheus-stack/SOURCE.md): 255
//     templates, 5 subcharts, 10 CRDs of 4.6 MiB, 132 objects. helm
//     template is given --include-crds --skip-tests (kubeplan lints the
//     CRDs and drops test hooks), and kubeconform, besides the built-in
//     schemas, the strict schemas kubeconform's own
//     scripts/openapi2jsonschema.py makes from the chart's CRDs (python3
//     with pyyaml), as tools/benchlintcrds does.
//
// Steps, one file each:
//
//   - tools.go: rebuilds bin/kubeplan (unless -kubeplan); installs
//     kubeconform v0.8.0 into bin/ and the helm CLI v4.3.1 into
//     .bench/helm/bin from the Go module proxy when they are missing or
//     another version (only this benchmark and test/helmdiff need helm).
//   - main.go: per scenario, one warm-up of each side, which also checks
//     what each found (kubeconform's summary: resources, valid, invalid,
//     errors, skipped; kubeplan's JSON summary: objects, errors): both must
//     count the same objects and kubeconform find them all valid; then
//     runs alternating.
//   - report.go: medians, the median of per-run ratios and the verdict
//     against the target (kubeplan wall <= 1.0x the pipeline's), as one
//     Markdown section with a part per scenario.
//
// When kubeplan's lint reads 0 objects from the chart (a kubeplan that does
// not render charts), the benchmark says so and reports the helm and
// kubeconform side alone instead of a ratio.
package main
