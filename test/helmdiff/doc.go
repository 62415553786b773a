// Package helmdiff is the Helm differential suite (issue 26): public charts
// rendered by kubeplan (manifest.Load) and by the helm CLI v4.3.1 (helm
// template, built from the Go module proxy), compared object by object as
// parsed objects. The charts are public data kept outside this repository
// (see charts.txt and docs/helm.md "Differences from helm template"); the
// override values files are ours, under testdata/helmdiff.
//
// HELMDIFF_DUMP=DIR writes both sides of every object that differs to DIR
// as JSON, for diff(1).
package helmdiff
