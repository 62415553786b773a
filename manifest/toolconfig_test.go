package manifest

import "testing"

func TestToolConfigsAreNotObjects(t *testing.T) {
	files := map[string]string{
		"skaffold.yaml":    "apiVersion: skaffold/v2beta29\nkind: Config\nmetadata:\n  name: metrics-server\n",
		"kind-config.yaml": "kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nnodes:\n- role: control-plane\n",
		"kubeadm.yaml":     "apiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\n",
	}
	for name, data := range files {
		objs, probs := Parse(name, []byte(data))
		if len(objs) != 0 || len(probs) != 0 {
			t.Errorf("%s: %d objects, problems %v", name, len(objs), probs)
		}
		if MayHoldObject([]byte(data)) {
			t.Errorf("%s: may hold an object", name)
		}
	}
	// real objects, also of groups ending like a tool's, stay objects
	for _, data := range []string{
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n",
		"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\n",
		"apiVersion: skaffold/v2beta29\nkind: Config\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n",
		`{"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "a"}}`,
	} {
		if !MayHoldObject([]byte(data)) {
			t.Errorf("%q: may hold no object", data)
		}
	}
	objs, _ := Parse("mixed.yaml", []byte("apiVersion: skaffold/v2beta29\nkind: Config\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n"))
	if len(objs) != 1 || objs[0].Kind != "ConfigMap" {
		t.Errorf("mixed: %v", objs)
	}
}
