package project

import (
	"slices"
	"testing"
)

// TestHelmRefs: the charts and values files of helmCharts: are found in
// block, flow and JSON forms; a kustomization without helmCharts names
// none.
func TestHelmRefs(t *testing.T) {
	for _, tc := range []struct {
		name, data     string
		charts, values []string
	}{
		{"block", "helmGlobals:\n  chartHome: vendor\nhelmCharts:\n- name: web\n  valuesFile: values.yaml\n", []string{"vendor/web"}, []string{"values.yaml"}},
		{"flow", "helmCharts: [{name: web, version: 1.2.0}]\n", []string{"charts/web", "charts/web-1.2.0/web"}, nil},
		{"JSON", `{"helmCharts": [{"name": "web", "additionalValuesFiles": ["a.yaml"]}]}`, []string{"charts/web"}, []string{"a.yaml"}},
		{"none", "resources: [app.yaml]\n# helm is not used here\n", nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			charts, values := helmRefs([]byte(tc.data))
			if !slices.Equal(charts, tc.charts) || !slices.Equal(values, tc.values) {
				t.Errorf("helmRefs = %q, %q; want %q, %q", charts, values, tc.charts, tc.values)
			}
		})
	}
}
