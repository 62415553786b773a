package loader

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/testing/filetree"
	"github.com/kubeplan/kubeplan/manifest"
)

const cm = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s\n"

func TestLoadDirectory(t *testing.T) {
	dir := t.TempDir()
	filetree.Write(t, dir, map[string]string{
		"a.yaml":                       strings.Replace(cm, "%s", "a", 1),
		"sub/b.yml":                    strings.Replace(cm, "%s", "b", 1),
		"sub/c.json":                   `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}}`,
		"sub/notes.txt":                "not yaml",
		"skip/d.yaml":                  strings.Replace(cm, "%s", "d", 1),
		".github/workflows/ci.yml":     "on: push\njobs: {}\n",
		"chart/Chart.yaml":             "apiVersion: v2\nname: x\nversion: 0.1.0\n", // rendered: empty
		"chart/templates/t.yaml":       "{{ .Values.x }}\n",
		"values.yaml":                  "replicaCount: 1\n",
		"kustomization-free/e.yaml":    strings.Replace(cm, "%s", "e", 1),
		"kustomization-free/list.yaml": "- not\n- an object\n",
	})
	res, err := Load([]string{dir}, Options{Exclude: []string{"skip", "**/list.yaml"}})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, o := range res.Objects {
		names = append(names, o.Name)
	}
	if got := strings.Join(names, ","); got != "a,e,b,c" {
		t.Errorf("objects = %s, want a,e,b,c", got)
	}
	if len(res.Problems) != 0 {
		t.Errorf("problems: %v", res.Problems)
	}
	c := res.Objects[3]
	if c.Pos("metadata", "name") != (manifest.Pos{Line: 1, Col: 64}) {
		t.Errorf("json position = %v", c.Pos("metadata", "name"))
	}
}

func TestLoadStdinAndMissing(t *testing.T) {
	res, err := Load([]string{"-"}, Options{Stdin: strings.NewReader(strings.Replace(cm, "%s", "x", 1))})
	if err != nil || len(res.Objects) != 1 || res.Objects[0].File != "<stdin>" {
		t.Fatalf("stdin: %v %+v", err, res)
	}
	if _, err := Load([]string{"/does/not/exist"}, Options{}); err == nil || !strings.Contains(err.Error(), "/does/not/exist") {
		t.Errorf("missing path error = %v", err)
	}
}

func TestLoadKustomize(t *testing.T) {
	dir := t.TempDir()
	filetree.Write(t, dir, map[string]string{
		"base/kustomization.yaml": "resources:\n- deploy.yaml\n- cm.yaml\n",
		"base/deploy.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: my-app
spec:
  replicas: 2
  selector: {matchLabels: {app: my-app}}
  template:
    metadata: {labels: {app: my-app}}
    spec:
      containers:
      - name: app
        image: nginx:1.30
`,
		"base/cm.yaml":               "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: one\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: two\ndata:\n  k: v\n",
		"overlay/kustomization.yaml": "namespace: demo\nnamePrefix: prod-\nresources:\n- ../base\npatches:\n- patch: |\n    apiVersion: apps/v1\n    kind: Deployment\n    metadata: {name: my-app}\n    spec: {replicas: 4}\n",
	})
	// dir is a repository: the overlay may read ../base inside it.
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	res, err := Load([]string{filepath.Join(dir, "overlay")}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Problems) != 0 || len(res.Objects) != 3 {
		t.Fatalf("objects=%d problems=%v", len(res.Objects), res.Problems)
	}
	var dep, two *manifest.Object
	for _, o := range res.Objects {
		switch o.Name {
		case "prod-my-app":
			dep = o
		case "prod-two":
			two = o
		}
	}
	if dep == nil || two == nil {
		t.Fatalf("missing objects: %v", res.Objects)
	}
	if dep.Namespace != "demo" || dep.Content["spec"].(map[string]any)["replicas"] != int64(4) {
		t.Errorf("kustomize output not used: ns=%q spec=%v", dep.Namespace, dep.Content["spec"])
	}
	if _, ok := dep.Annotations()["config.kubernetes.io/origin"]; ok {
		t.Error("origin annotation leaked into the object")
	}
	if filepath.Base(dep.File) != "deploy.yaml" || dep.Pos("spec", "template", "spec", "containers", "0", "image") != (manifest.Pos{Line: 13, Col: 16}) {
		t.Errorf("deployment maps to %s:%v", dep.File, dep.Pos("spec", "template", "spec", "containers", "0", "image"))
	}
	if filepath.Base(two.File) != "cm.yaml" || two.Pos("data", "k") != (manifest.Pos{Line: 11, Col: 6}) {
		t.Errorf("second document maps to %s:%v", two.File, two.Pos("data", "k"))
	}
	// kustomize errors are problems at the kustomization file
	filetree.Write(t, dir, map[string]string{"broken/kustomization.yaml": "resources:\n- missing.yaml\n"})
	res, err = Load([]string{filepath.Join(dir, "broken")}, Options{})
	if err != nil || len(res.Problems) != 1 || !strings.HasSuffix(res.Problems[0].File, "kustomization.yaml") {
		t.Fatalf("broken kustomization: %v %v", err, res)
	}
}

func TestLoadKustomizationFileBuildsDir(t *testing.T) {
	dir := t.TempDir()
	filetree.Write(t, dir, map[string]string{
		"kustomization.yaml": "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: demo\nresources: [cm.yaml]\n",
		"cm.yaml":            strings.Replace(cm, "%s", "x", 1),
	})
	res, err := Load([]string{filepath.Join(dir, "kustomization.yaml")}, Options{})
	if err != nil || len(res.Problems) != 0 || len(res.Objects) != 1 || res.Objects[0].Namespace != "demo" {
		t.Fatalf("kustomization file: %v %+v", err, res)
	}
	objs, probs := manifest.Parse("component.yaml", []byte("apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\n"))
	if len(objs) != 0 || len(probs) != 1 || probs[0].Rule != manifest.RuleToolConfig || !probs[0].Info {
		t.Errorf("kustomize component: want no object and one info %s, got %v %v", manifest.RuleToolConfig, objs, probs)
	}
}
