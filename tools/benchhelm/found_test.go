package main

import (
	"strings"
	"testing"
	"time"
)

func TestParsePeer(t *testing.T) {
	f, err := parsePeer([]byte("stdin - Deployment x is invalid: ...\nSummary: 62 resources found parsing stdin - Valid: 60, Invalid: 1, Errors: 1, Skipped: 0\n"))
	if err != nil || f != (peerFound{62, 60, 1, 1, 0}) {
		t.Fatalf("%+v %v", f, err)
	}
	if _, err := parsePeer([]byte("Error: chart not found\n")); err == nil {
		t.Error("no summary, no error")
	}
}

func TestReportWithoutChartRendering(t *testing.T) {
	kp, err := parseKubeplan([]byte(`{"summary": {"errors": 31, "files": 32, "objects": 0}, "findings": []}`))
	if err != nil || kp.Objects != 0 || kp.Files != 32 {
		t.Fatalf("%+v %v", kp, err)
	}
	r := &result{Chart: "testdata/charts/bench", KPFound: kp, PeerFound: peerFound{Resources: 50, Valid: 50},
		Peer: tool{Args: []string{"-c", pipefail + "helm template | kubeconform"}}, KP: tool{Bin: "bin/kubeplan"},
		PeerSamples: []sample{{Wall: time.Second}}}
	md := r.markdown()
	for _, want := range []string{"kubeplan does not render charts yet", "| kubeplan lint | not measured", "`helm template | kubeconform`"} {
		if !strings.Contains(md, want) {
			t.Errorf("missing %q in\n%s", want, md)
		}
	}
	if strings.Contains(md, "kubeplan / pipeline") {
		t.Errorf("a ratio without kubeplan runs:\n%s", md)
	}
	r.KPFound.Objects, r.KPSamples = 50, []sample{{Wall: 500 * time.Millisecond}}
	if md := r.markdown(); !strings.Contains(md, "0.50x") || !strings.Contains(md, "PASS") {
		t.Errorf("ratio and verdict:\n%s", md)
	}
}
