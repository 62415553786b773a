package plan

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func TestPlannedCreateIsTheManifest(t *testing.T) {
	manifestObj := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Service",
		"metadata": map[string]any{"name": "web", "labels": map[string]any{"applyset.kubernetes.io/part-of": "applyset-x-v1"}},
		"spec":     map[string]any{"ports": []any{map[string]any{"port": int64(80)}}}}}
	server := manifestObj.DeepCopy()
	server.Object["spec"].(map[string]any)["clusterIP"] = "10.0.0.0"
	server.Object["spec"].(map[string]any)["sessionAffinity"] = "None"
	live := server.DeepCopy()
	tg := &target{obj: manifestObj}

	p := &planner{}
	create := Diff(nil, p.planned(tg, nil, server))
	if strings.Contains(create, "clusterIP") || strings.Contains(create, "sessionAffinity") || !strings.Contains(create, "+    applyset.kubernetes.io/part-of: applyset-x-v1") {
		t.Errorf("create diff is not the manifest:\n%s", create)
	}
	if got := p.planned(tg, live, server); got["spec"].(map[string]any)["clusterIP"] != "10.0.0.0" {
		t.Errorf("an update must diff against the dry-run result, got %v", got)
	}
	p.opts.ShowDefaults = true
	if d := Diff(nil, p.planned(tg, nil, server)); !strings.Contains(d, "+  clusterIP: 10.0.0.0") || !strings.Contains(d, "+  sessionAffinity: None") {
		t.Errorf("ShowDefaults create diff lacks the server's defaults:\n%s", d)
	}
}
