package kustomize_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/testing/filetree"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/manifest/kustomize"
	"github.com/kubeplan/kubeplan/manifest/loader"
)

func TestKustomizeBlamesOverlays(t *testing.T) {
	dir := t.TempDir()
	filetree.Write(t, dir, map[string]string{
		"base/kustomization.yaml": "resources:\n- frontend.yaml\n",
		"base/frontend.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: frontend
spec:
  replicas: 1
  selector: {matchLabels: {app: frontend}}
  template:
    metadata: {labels: {app: frontend}}
    spec:
      containers:
      - name: app
        image: shop:v0.10.6
      - name: side
        image: side:1.0
        imagePullPolicy: Always
`,
		"overlays/prod/kustomization.yaml": `resources:
- ../../base
namespace: prod
namePrefix: prod-
commonLabels:
  tier: web
images:
- name: shop
  newTag: latest
patches:
- path: replicas.yaml
- path: json.yaml
  target:
    kind: Deployment
    name: frontend
- patch: |-
    - op: replace
      path: /spec/template/spec/containers/1/imagePullPolicy
      value: Sometimes
  target: {kind: Deployment}
`,
		"overlays/prod/replicas.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: frontend
spec:
  replicas: "3"
  template:
    spec:
      containers:
      - name: side
        env:
        - {name: MODE, value: prod}
`,
		"overlays/prod/json.yaml": "- op: add\n  path: /spec/minReadySeconds\n  value: -5\n",
	})
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	res, err := loader.Load([]string{filepath.Join(dir, "overlays/prod")}, loader.Options{})
	if err != nil || len(errorProblems(res.Problems)) != 0 || len(res.Objects) != 1 {
		t.Fatalf("load: %v %v %v", err, res.Problems, res.Objects)
	}
	o := res.Objects[0]
	// The strategic merge patch moves the container it patches ("side") first.
	c := "spec template spec containers "
	for _, tc := range []struct {
		path, file string
		pos        manifest.Pos
	}{
		{"spec replicas", "overlays/prod/replicas.yaml", manifest.Pos{Line: 6, Col: 13}},
		{c + "1 image", "overlays/prod/kustomization.yaml", manifest.Pos{Line: 9, Col: 11}},
		{c + "0 env 0 value", "overlays/prod/replicas.yaml", manifest.Pos{Line: 12, Col: 31}},
		{c + "1 imagePullPolicy", "overlays/prod/kustomization.yaml", manifest.Pos{Line: 19, Col: 14}},
		{"spec minReadySeconds", "overlays/prod/json.yaml", manifest.Pos{Line: 3, Col: 10}},
		{"metadata namespace", "overlays/prod/kustomization.yaml", manifest.Pos{Line: 3, Col: 12}},
		{"metadata name", "overlays/prod/kustomization.yaml", manifest.Pos{Line: 4, Col: 13}},
		{"metadata labels tier", "overlays/prod/kustomization.yaml", manifest.Pos{Line: 6, Col: 9}},
		{c + "0 image", "base/frontend.yaml", manifest.Pos{Line: 15, Col: 16}}, // moved to the front by the patch
		{c + "1 name", "base/frontend.yaml", manifest.Pos{Line: 12, Col: 15}},
		{"spec selector matchLabels app", "base/frontend.yaml", manifest.Pos{Line: 7, Col: 33}},
	} {
		path := strings.Fields(tc.path)
		file, err := filepath.Rel(dir, o.FileOf(path...))
		if err != nil || file != tc.file || o.Pos(path...) != tc.pos {
			t.Errorf("%s at %s:%v, want %s:%v", tc.path, file, o.Pos(path...), tc.file, tc.pos)
		}
	}
	if kp := o.KeyPos("spec", "replicas"); kp != (manifest.Pos{Line: 6, Col: 3}) {
		t.Errorf("key of spec.replicas at %v", kp)
	}
}

func TestKustomizeGeneratorPositions(t *testing.T) {
	dir := t.TempDir()
	filetree.Write(t, dir, map[string]string{
		"base/kustomization.yaml": `configMapGenerator:
- name: other
  literals: [A=1]
- name: settings
  literals:
  - MODE=dev
  - LEVEL=3
  files:
  - app.conf
  - extra=more.txt
`,
		"base/app.conf":                   "x\n",
		"base/more.txt":                   "y\n",
		"overlays/dev/kustomization.yaml": "namePrefix: dev-\nresources:\n- ../../base\nsecretGenerator:\n- name: creds\n  envs: [creds.env]\n",
		"overlays/dev/creds.env":          "USER=me\n",
	})
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	res, err := loader.Load([]string{filepath.Join(dir, "overlays/dev")}, loader.Options{})
	if err != nil || len(res.Problems) != 0 || len(res.Objects) != 3 {
		t.Fatalf("load: %v %v %v", err, res.Problems, res.Objects)
	}
	for _, tc := range []struct {
		kind, name, path, file string
		pos                    manifest.Pos
	}{
		{"ConfigMap", "settings", "", "base/kustomization.yaml", manifest.Pos{Line: 4, Col: 3}},
		{"ConfigMap", "settings", "data LEVEL", "base/kustomization.yaml", manifest.Pos{Line: 7, Col: 5}},
		{"ConfigMap", "settings", "data app.conf", "base/kustomization.yaml", manifest.Pos{Line: 9, Col: 5}},
		{"ConfigMap", "settings", "data extra", "base/kustomization.yaml", manifest.Pos{Line: 10, Col: 5}},
		{"ConfigMap", "other", "data A", "base/kustomization.yaml", manifest.Pos{Line: 3, Col: 14}},
		{"Secret", "creds", "data USER", "overlays/dev/kustomization.yaml", manifest.Pos{Line: 6, Col: 10}},
		{"Secret", "creds", "type", "overlays/dev/kustomization.yaml", manifest.Pos{Line: 5, Col: 3}},
	} {
		var o *manifest.Object
		for _, x := range res.Objects {
			if x.Kind == tc.kind && strings.Contains(x.Name, tc.name) {
				o = x
			}
		}
		if o == nil {
			t.Fatalf("no %s %s in %v", tc.kind, tc.name, res.Objects)
		}
		path := strings.Fields(tc.path)
		file, _ := filepath.Rel(dir, o.FileOf(path...))
		if file != tc.file || o.Pos(path...) != tc.pos {
			t.Errorf("%s %s %s at %s:%v, want %s:%v", tc.kind, tc.name, tc.path, file, o.Pos(path...), tc.file, tc.pos)
		}
	}
}

func TestKustomizeBlamesLegacyFields(t *testing.T) {
	dir := t.TempDir()
	dep := "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: %s\nspec:\n  replicas: 1\n  template:\n    spec:\n      containers:\n      - name: app\n        image: shop:v1\n"
	filetree.Write(t, dir, map[string]string{
		"base/kustomization.yaml": "resources: [web.yaml, web-admin.yaml]\n",
		"base/web.yaml":           strings.Replace(dep, "%s", "web", 1),
		"base/web-admin.yaml":     strings.Replace(dep, "%s", "web-admin", 1),
		"prod/kustomization.yaml": `resources: [../base]
patchesStrategicMerge:
- smp.yaml
- |
  apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web-admin}
  spec: {minReadySeconds: 4}
patchesJson6902:
- target: {group: apps, version: v1, kind: Deployment, name: web}
  path: ops.json
labels:
- pairs:
    team: shop
replicas:
- name: web-admin
  count: 2
images:
- name: shop
  newName: registry.example/shop
  digest: sha256:0000000000000000000000000000000000000000000000000000000000000000
`,
		"prod/smp.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 5\n",
		"prod/ops.json": `[{"op": "add", "path": "/spec/paused", "value": true}]`,
	})
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	res, err := loader.Load([]string{filepath.Join(dir, "prod")}, loader.Options{})
	if err != nil || len(errorProblems(res.Problems)) != 0 || len(res.Objects) != 2 {
		t.Fatalf("load: %v %v %v", err, res.Problems, res.Objects)
	}
	for _, tc := range []struct {
		name, path, file string
		pos              manifest.Pos
	}{
		{"web", "spec replicas", "prod/smp.yaml", manifest.Pos{Line: 6, Col: 13}},
		{"web", "spec paused", "prod/ops.json", manifest.Pos{Line: 1, Col: 49}},
		{"web", "metadata labels team", "prod/kustomization.yaml", manifest.Pos{Line: 14, Col: 11}},
		{"web", "spec template spec containers 0 image", "prod/kustomization.yaml", manifest.Pos{Line: 21, Col: 11}},
		{"web-admin", "spec replicas", "prod/kustomization.yaml", manifest.Pos{Line: 17, Col: 10}},
		{"web-admin", "spec minReadySeconds", "prod/kustomization.yaml", manifest.Pos{Line: 8, Col: 27}},
		{"web", "spec minReadySeconds", "base/web.yaml", manifest.Pos{Line: 5, Col: 1}},    // not there: its spec
		{"web-admin", "spec paused", "base/web-admin.yaml", manifest.Pos{Line: 5, Col: 1}}, // not there: its spec
		{"web-admin", "metadata name", "base/web-admin.yaml", manifest.Pos{Line: 4, Col: 9}},
	} {
		var o *manifest.Object
		for _, x := range res.Objects {
			if x.Name == tc.name {
				o = x
			}
		}
		if o == nil {
			t.Fatalf("no %s in %v", tc.name, res.Objects)
		}
		path := strings.Fields(tc.path)
		file, _ := filepath.Rel(dir, o.FileOf(path...))
		if file != tc.file || o.Pos(path...) != tc.pos {
			t.Errorf("%s %s at %s:%v, want %s:%v", tc.name, tc.path, file, o.Pos(path...), tc.file, tc.pos)
		}
	}
}

func TestKustomizeBlamesTargetsAndReplacements(t *testing.T) {
	dir := t.TempDir()
	filetree.Write(t, dir, map[string]string{
		"base/kustomization.yaml": "resources: [web.yaml]\n",
		"base/web.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
      - name: app
        image: shop:v1
        env:
        - name: HOST
          value: localhost
`,
		"prod/kustomization.yaml": `resources: [../base]
configMapGenerator:
- name: cfg
  literals: [host=db.prod, image=shop:v2]
patches:
- target: {kind: Deployment}
  patch: |
    apiVersion: apps/v1
    kind: Deployment
    metadata: {name: any}
    spec: {minReadySeconds: 7}
replacements:
- source: {kind: ConfigMap, name: cfg, fieldPath: data.host}
  targets:
  - select: {kind: Deployment}
    fieldPaths:
    - spec.template.spec.containers.[name=app].env.[name=HOST].value
- path: image.yaml
`,
		"prod/image.yaml": `source: {kind: ConfigMap, name: cfg, fieldPath: data.image}
targets:
- select: {kind: Deployment, name: web}
  fieldPaths: [spec.template.spec.containers.0.image]
`,
	})
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	res, err := loader.Load([]string{filepath.Join(dir, "prod")}, loader.Options{})
	if err != nil || len(errorProblems(res.Problems)) != 0 || len(res.Objects) != 2 {
		t.Fatalf("load: %v %v %v", err, res.Problems, res.Objects)
	}
	var o *manifest.Object
	for _, x := range res.Objects {
		if x.Kind == "Deployment" {
			o = x
		}
	}
	for _, tc := range []struct {
		path, file string
		pos        manifest.Pos
	}{
		{"spec minReadySeconds", "prod/kustomization.yaml", manifest.Pos{Line: 11, Col: 29}},
		{"spec template spec containers 0 env 0 value", "prod/kustomization.yaml", manifest.Pos{Line: 17, Col: 7}},
		{"spec template spec containers 0 env 0 name", "base/web.yaml", manifest.Pos{Line: 12, Col: 17}},
		{"spec template spec containers 0 image", "prod/image.yaml", manifest.Pos{Line: 4, Col: 16}},
	} {
		path := strings.Fields(tc.path)
		file, _ := filepath.Rel(dir, o.FileOf(path...))
		if file != tc.file || o.Pos(path...) != tc.pos {
			t.Errorf("%s at %s:%v, want %s:%v", tc.path, file, o.Pos(path...), tc.file, tc.pos)
		}
	}
}

func TestKustomizeBlamesNamespaceReferences(t *testing.T) {
	dir := t.TempDir()
	filetree.Write(t, dir, map[string]string{
		"base/kustomization.yaml": "resources: [rb.yaml, sa.yaml]\n",
		"base/sa.yaml":            "apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: app}\n",
		"base/rb.yaml": `apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: read}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: read}
subjects:
- {kind: ServiceAccount, name: app, namespace: default}
- {kind: User, name: ann}
`,
		"prod/kustomization.yaml": "resources: [../base]\nnamespace: prod\n",
	})
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	res, err := loader.Load([]string{filepath.Join(dir, "prod")}, loader.Options{})
	if err != nil || len(errorProblems(res.Problems)) != 0 || len(res.Objects) != 2 {
		t.Fatalf("load: %v %v %v", err, res.Problems, res.Objects)
	}
	o := res.Objects[0]
	if o.Kind != "RoleBinding" {
		o = res.Objects[1]
	}
	for _, tc := range []struct {
		path, file string
		pos        manifest.Pos
	}{
		{"metadata namespace", "prod/kustomization.yaml", manifest.Pos{Line: 2, Col: 12}},
		{"subjects 0 namespace", "prod/kustomization.yaml", manifest.Pos{Line: 2, Col: 12}},
		{"subjects 1 name", "base/rb.yaml", manifest.Pos{Line: 7, Col: 22}},
	} {
		path := strings.Fields(tc.path)
		file, _ := filepath.Rel(dir, o.FileOf(path...))
		if file != tc.file || o.Pos(path...) != tc.pos {
			t.Errorf("%s at %s:%v, want %s:%v", tc.path, file, o.Pos(path...), tc.file, tc.pos)
		}
	}
}

// errorProblems leaves out warnings (deprecated kustomize fields).
func errorProblems(ps []*manifest.Problem) []*manifest.Problem {
	var out []*manifest.Problem
	for _, p := range ps {
		if !p.Warning {
			out = append(out, p)
		}
	}
	return out
}

// A deprecated kustomize field is a warning problem at the field, once per
// file.
func TestKustomizeDeprecatedFields(t *testing.T) {
	got := kustomize.DeprecatedProblems([]kustomize.ReadKustomization{
		{File: "ov/kustomization.yaml", Data: []byte("resources: [a.yaml]\nbases:\n- ../base\ncommonLabels: {app: x}\n")},
		{File: "ov/kustomization.yaml", Data: []byte("bases: [../base]\n")},
		{File: "base/kustomization.yaml", Data: []byte("resources: [a.yaml]\n")},
	})
	if len(got) != 2 || got[0].Line != 2 || got[0].Col != 1 || got[1].Line != 4 || !got[0].Warning || got[0].Rule != "kustomize-deprecated" ||
		!strings.Contains(got[0].Message, `"bases" is deprecated by kustomize: use "resources"`) || !strings.Contains(got[1].Message, `use "labels"`) {
		for _, p := range got {
			t.Logf("%+v", *p)
		}
		t.Fatalf("got %d problems", len(got))
	}
}
