package main

import (
	"strings"
	"testing"
	"time"
)

func TestPickScenarios(t *testing.T) {
	got, err := pickScenarios("kube-prometheus-stack, synthetic")
	if err != nil || len(got) != 2 || got[0].Name != "kube-prometheus-stack" || !got[0].Real || got[1].Real {
		t.Fatalf("%+v %v", got, err)
	}
	if _, err := pickScenarios("nope"); err == nil || !strings.Contains(err.Error(), "synthetic, kube-prometheus-stack") {
		t.Errorf("unknown scenario: %v", err)
	}
}

// The vendored chart is what the real scenario says it is: 10 CRD files
// for kubeconform's schemas, its subcharts, nested templates counted.
func TestVendoredChartShape(t *testing.T) {
	dir := "../../testdata/charts/public/kube-prometheus-stack"
	crds, err := crdFiles(dir)
	if err != nil || len(crds) != 10 {
		t.Fatalf("%d CRD files %v, want 10", len(crds), err)
	}
	tpl, sub := countTemplates(dir)
	if sub != 5 || tpl < 200 {
		t.Errorf("%d templates, %d subcharts; want 5 subcharts and the nested templates (200+)", tpl, sub)
	}
	if tpl, sub := countTemplates("../../testdata/charts/bench"); tpl != 50 || sub != 2 {
		t.Errorf("synthetic chart: %d templates, %d subcharts, want 50 and 2", tpl, sub)
	}
}

func TestSectionVerdictPerScenario(t *testing.T) {
	mk := func(sc scenario, kp, peer time.Duration) *result {
		return &result{Scenario: sc, Chart: sc.Chart, KPFound: kpFound{Objects: 132}, PeerFound: peerFound{Resources: 132, Valid: 132},
			Peer: tool{Args: []string{"-c", pipefail + "helm template | kubeconform"}}, KP: tool{Bin: "bin/kubeplan"},
			PeerSamples: []sample{{Wall: peer, CPU: peer}}, KPSamples: []sample{{Wall: kp, CPU: kp / 2}}, CRDSchemas: ".bench/helm/kc-schemas", CRDFiles: 10}
	}
	md := section([]*result{mk(scenarios[0], 80*time.Millisecond, 100*time.Millisecond), mk(scenarios[1], 1200*time.Millisecond, time.Second)})
	for _, want := range []string{"- **synthetic: 0.80x, PASS**", "- **kube-prometheus-stack: 1.20x, FAIL** (CPU: 0.60x)", "### kube-prometheus-stack",
		"openapi2jsonschema.py", "10 CRD files", "Same objects: kubeplan 132 objects"} {
		if !strings.Contains(md, want) {
			t.Errorf("missing %q in\n%s", want, md)
		}
	}
}
