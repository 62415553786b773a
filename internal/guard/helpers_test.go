package guard

import (
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// guardsNode is the guards: node of a kubeplan.yaml text.
func guardsNode(t testing.TB, text string) *yaml.Node {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		t.Fatal(err)
	}
	root := doc.Content[0]
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "guards" {
			return root.Content[i+1]
		}
	}
	t.Fatalf("no guards: in %q", text)
	return nil
}

// compileYAML parses a kubeplan.yaml text's guards: and compiles it.
func compileYAML(t *testing.T, text string) (*Set, error) {
	t.Helper()
	c, _, err := ParseConfig("kubeplan.yaml", guardsNode(t, text))
	if err != nil {
		t.Fatalf("ParseConfig: %v", err)
	}
	return Compile(c)
}

// mustCompile is compileYAML that must succeed.
func mustCompile(t *testing.T, text string) *Set {
	t.Helper()
	s, err := compileYAML(t, text)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Realistic changes of a shop namespace.
func pvcPrune() Change {
	return Change{Action: "prune", Version: "v1", Kind: "PersistentVolumeClaim", Namespace: "shop", Name: "data",
		Object: "persistentvolumeclaim/data", Files: []string{"apps/shop"},
		Before: map[string]any{"apiVersion": "v1", "kind": "PersistentVolumeClaim",
			"metadata": map[string]any{"name": "data", "namespace": "shop", "labels": map[string]any{"data-class": "critical"}}}}
}

func deployUpdate() Change {
	return Change{Action: "update", Group: "apps", Version: "v1", Kind: "Deployment", Namespace: "shop", Name: "web",
		Object: "deployment.apps/web", Files: []string{"apps/shop/web.yaml"},
		Paths:  []string{"spec.replicas", "spec.template.spec.containers[0].image"},
		Before: map[string]any{"spec": map[string]any{"replicas": int64(2)}},
		After:  map[string]any{"spec": map[string]any{"replicas": int64(3)}}}
}

func stsReplace() Change {
	return Change{Action: "replace", Group: "apps", Version: "v1", Kind: "StatefulSet", Namespace: "shop", Name: "db",
		Object: "statefulset.apps/db", Files: []string{"apps/shop/db.yaml"}, Paths: []string{"spec.volumeClaimTemplates"}}
}

func nsPrune() Change {
	return Change{Action: "prune", Version: "v1", Kind: "Namespace", Name: "legacy", Object: "namespace/legacy", Files: []string{"apps/shop"}}
}

func crdReplace() Change {
	return Change{Action: "replace", Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition",
		Name: "widgets.example.com", Object: "customresourcedefinition.apiextensions.k8s.io/widgets.example.com", Files: []string{"crds/widgets.yaml"}}
}

func shopPlan() Plan {
	return Plan{Project: "shop", Cluster: "prod", Namespace: "shop", ApplySet: "configmap/kubeplan-shop",
		Counts:  map[string]int64{"create": 0, "update": 1, "replace": 1, "prune": 1, "adopt": 0, "release": 0},
		Members: 10, PrunedFraction: 0.1, Files: []string{"apps/shop"}}
}
