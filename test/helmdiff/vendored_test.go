package helmdiff

import (
	"path/filepath"
	"testing"
)

// vendoredChart is the real chart bench-helm measures, kept in the
// repository with its subcharts (testdata/charts/public/.../SOURCE.md):
// kube-prometheus-stack with crds, grafana, kube-state-metrics and the
// node and windows exporters, 10 CRDs of 4.6 MiB.
const vendoredChart = "../../testdata/charts/public/kube-prometheus-stack"

// TestHelmTemplateEqualityVendoredChart: kubeplan renders the vendored
// chart into the objects helm template --include-crds --skip-tests
// renders, field for field (the generated ones masked), with its own
// values and with Grafana and the admission webhooks' hooks off. The
// benchmark's "same objects" rests on it.
func TestHelmTemplateEqualityVendoredChart(t *testing.T) {
	bin := helmBinary(t)
	served, builtin := apiVersions(t)
	compare(t, bin, vendoredChart, nil, served, builtin)
	copyPath, override := withOverride(t, vendoredChart, filepath.Join("..", "..", "testdata", "helmdiff", "vendored-kube-prometheus-stack.yaml"))
	compare(t, bin, copyPath, []string{override}, served, builtin)
}
