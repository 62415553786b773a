package lint

import "testing"

// TestToolConfigIsInfo: a kubeconfig and a kind cluster config beside a
// manifest give one info each at their kind, never an error, and only the
// manifest is an object; a custom resource of kind Config is still linted.
func TestToolConfigIsInfo(t *testing.T) {
	src := "apiVersion: v1\nkind: Config\nclusters: []\ncontexts: []\nusers: []\ncurrent-context: \"\"\n---\n" +
		"kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nnodes:\n- role: control-plane\n---\n" +
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\n---\n" +
		"apiVersion: example.com/v1\nkind: Config\nmetadata: {name: real}\n"
	rep := lintSrc(t, src, Options{})
	expect(t, rep,
		"2:7 tool-config v1 Config is a kubeconfig",
		"8:7 tool-config kind.x-k8s.io/v1alpha4 Cluster is kind's cluster configuration",
		"18:7 missing-schema no schema for example.com/v1 Config",
	)
	if rep.Findings[0].Severity != Info || rep.Findings[1].Severity != Info || rep.Count(Error) != 1 {
		t.Errorf("severities: %+v", rep.Findings)
	}
	if rep.Objects != 2 {
		t.Errorf("%d objects, want 2 (the ConfigMap and the custom resource)", rep.Objects)
	}
	if !KnownRule("tool-config") {
		t.Error("tool-config is not a known rule")
	}
}
