package deploytest

import (
	"strings"
	"testing"
)

// TestLintBundle lints every entry point of deploy/ with kubeplan itself, as
// a user would before applying it: no errors and no warnings.
func TestLintBundle(t *testing.T) {
	for _, tc := range []struct {
		dir     string
		extra   []string
		objects string
	}{
		{dir: "deploy/base", objects: "(7 objects)"},
		{dir: "deploy/overlays/example", objects: "(10 objects)"},
		{dir: "deploy/monitoring", extra: []string{"--crds", "deploy/crds"}, objects: "(2 objects)"},
		// The bundle's own kubeplan.yaml names the CRDs (crds:): no flag.
		{dir: "deploy/monitoring", extra: []string{"--config", "deploy/kubeplan.yaml"}, objects: "(2 objects)"},
		// From the repository root crds/ is read as manifests, whose CRDs
		// validate the monitoring kinds.
		{dir: "deploy", objects: "(14 objects)"},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			res := kubeplan(t, nil, append(append([]string{"lint"}, tc.extra...), tc.dir)...)
			if res.code != 0 || !strings.Contains(res.stdout, "0 errors, 0 warnings") || !strings.Contains(res.stdout, tc.objects) {
				t.Fatalf("kubeplan lint %s: want exit 0, 0 errors, 0 warnings, %s\n%s", tc.dir, tc.objects, res)
			}
		})
	}
}

// TestLintMonitoringChecksTheCRDs shows the CRDs of deploy/crds are what
// lint checks deploy/monitoring against: without them the kinds are unknown
// (the documented missing-schema error), and with them a malformed duration
// in an alert is an error at its line.
func TestLintMonitoringChecksTheCRDs(t *testing.T) {
	res := kubeplan(t, nil, "lint", "deploy/monitoring")
	if res.code != 1 || !strings.Contains(res.stdout, "missing-schema: no schema for monitoring.coreos.com/v1 PrometheusRule") {
		t.Errorf("lint without the CRDs: want exit 1 with missing-schema\n%s", res)
	}

	dir := t.TempDir()
	copyDir(t, repoRoot(t)+"/deploy/monitoring", dir)
	replaceIn(t, dir+"/prometheusrule.yaml", "for: 10m", "for: ten minutes")
	res = kubeplan(t, nil, "lint", "--crds", "deploy/crds", dir)
	if res.code != 1 || !strings.Contains(res.stdout, "prometheusrule.yaml:") ||
		!strings.Contains(res.stdout, "crd-schema: spec.groups[0].rules[0].for: 'ten minutes' does not match pattern") {
		t.Errorf("lint of a bad duration: want exit 1 with a crd-schema error\n%s", res)
	}
}
