// Command benchhelm benchmarks rendering and linting a Helm chart:
// `kubeplan lint CHARTDIR` (the chart rendered in-process) against
// `helm template CHARTDIR | kubeconform -strict -summary`, offline, with the
// same schemas (the ones kubeplan embeds, kubeapi.Dir()). It is what
// `make bench-helm` runs:
//
//	go run ./tools/benchhelm [-runs 10] [-chart testdata/charts/bench] [-doc docs/benchmarks.md]
//
// The chart, testdata/charts/bench, is a shop of six services (Deployment,
// Service, ConfigMap, ServiceAccount, HorizontalPodAutoscaler each) and two
// subcharts, a cache and a database (StatefulSet, Services, ConfigMap,
// Secret, PodDisruptionBudget, NetworkPolicy, RBAC, a backup CronJob and a
// pre-install migration Job hook): 50 templates.
//
// Steps, one file each:
//
//   - tools.go: rebuilds bin/kubeplan; installs kubeconform v0.8.0 into bin/
//     and the helm CLI v4.3.1 into .bench/helm/bin from the Go module proxy
//     when they are missing or another version (only this benchmark needs
//     helm; tests never do).
//   - main.go: one warm-up of each side, which also checks what each found
//     (kubeconform's summary: resources, valid, invalid, errors; kubeplan's
//     JSON summary: objects, errors), then runs alternating.
//   - report.go: medians, the ratio and the verdict against the target
//     (kubeplan wall <= 1.0x the pipeline's), as a Markdown section.
//
// When kubeplan's lint reads 0 objects from the chart (a kubeplan that does
// not render charts), the benchmark says so and reports the helm and
// kubeconform side alone instead of a ratio.
package main
