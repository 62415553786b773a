package kubeapi

import (
	"github.com/kubeplan/kubeplan/internal/testing/testkube"

	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/yannh/kubeconform/pkg/registry"
	"github.com/yannh/kubeconform/pkg/validator"
)

// compile compiles a schema file the way kubeconform's downloadSchema does.
func compile(t testing.TB, path string) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft4)
	if err := c.AddResource(path, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(path)
	if err != nil {
		t.Fatalf("%s: %v", filepath.Base(path), err)
	}
	return s
}

func schemaDir(t testing.TB) string {
	t.Helper()
	d, err := Dir()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestDeploymentSchema(t *testing.T) {
	start := time.Now()
	s := compile(t, filepath.Join(schemaDir(t), "deployment-apps-v1.json"))
	t.Logf("compiling deployment-apps-v1.json: %v", time.Since(start))

	const deployment = `{
	  "apiVersion": "apps/v1", "kind": "Deployment",
	  "metadata": {"name": "web", "labels": {"app": "web"}, "creationTimestamp": %s},
	  "spec": {
	    "replicas": %s,
	    "selector": {"matchLabels": {"app": "web"}},
	    "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": %s, "maxUnavailable": 0}},
	    "template": {
	      "metadata": {"labels": {"app": "web"}},
	      "spec": {"containers": [{
	        "name": "web", "image": "nginx:1.27",
	        "ports": [{"containerPort": 80}],
	        "resources": {"limits": {"cpu": "500m", "memory": 1073741824}},
	        "readinessProbe": {"httpGet": {"path": "/", "port": "http"}}
	      }]}
	    }
	  }%s
	}`
	for _, tc := range []struct {
		name                               string
		created, replicas, maxSurge, extra string
		valid                              bool
	}{
		{"normal", `"2024-05-01T10:00:00Z"`, "3", `"25%"`, "", true},
		{"null creationTimestamp", "null", "3", `"25%"`, "", true},
		{"maxSurge int", "null", "3", "1", "", true},
		{"null replicas", "null", "null", "1", "", true},
		{"replicas string", "null", `"three"`, "1", "", false},
		{"maxSurge bool", "null", "3", "true", "", false},
		{"bad timestamp", `"yesterday"`, "3", "1", "", false},
		{"unknown spec field", "null", "3", "1", "", false},
	} {
		doc := strings.Replace(deployment, "%s", tc.created, 1)
		doc = strings.Replace(doc, "%s", tc.replicas, 1)
		doc = strings.Replace(doc, "%s", tc.maxSurge, 1)
		doc = strings.Replace(doc, "%s", tc.extra, 1)
		if tc.name == "unknown spec field" {
			doc = strings.Replace(doc, `"replicas": 3`, `"replica": 3`, 1)
		}
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		err = s.Validate(v)
		if tc.valid && err != nil {
			t.Errorf("%s: rejected: %v", tc.name, err)
		}
		if !tc.valid && err == nil {
			t.Errorf("%s: accepted", tc.name)
		}
	}
}

// TestAllSchemasCompile guards against kubeconform silently skipping a kind:
// it treats a schema that fails to compile as missing.
func TestAllSchemasCompile(t *testing.T) {
	if testing.Short() {
		testkube.SkipUnlessCI(t, "compiles all 269 schemas; skipped with -short")
	}
	files, err := filepath.Glob(filepath.Join(schemaDir(t), "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 200 {
		t.Fatalf("only %d schema files", len(files))
	}
	for _, f := range files {
		compile(t, f)
	}
}

func TestKubeconformRegistry(t *testing.T) {
	dir := schemaDir(t)
	reg, err := registry.New(dir+"/"+FileTemplate, "", true, false, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ kind, apiVersion, file string }{
		{"Deployment", "apps/v1", "deployment-apps-v1.json"},
		{"Service", "v1", "service-v1.json"},
		{"ClusterRole", "rbac.authorization.k8s.io/v1", "clusterrole-rbac-v1.json"},
		{"Ingress", "networking.k8s.io/v1", "ingress-networking-v1.json"},
	} {
		path, schema, err := reg.DownloadSchema(tc.kind, tc.apiVersion, KubeVersion)
		if err != nil || schema == nil {
			t.Errorf("%s %s: %v", tc.apiVersion, tc.kind, err)
			continue
		}
		if path != filepath.Join(dir, tc.file) {
			t.Errorf("%s %s: path %s, want %s", tc.apiVersion, tc.kind, path, tc.file)
		}
	}
}

func TestKubeconformValidator(t *testing.T) {
	v, err := validator.New([]string{schemaDir(t) + "/" + FileTemplate}, validator.Opts{
		Strict: true, KubernetesVersion: KubeVersion,
	})
	if err != nil {
		t.Fatal(err)
	}
	const manifests = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  creationTimestamp: null
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  strategy: {rollingUpdate: {maxSurge: 25%, maxUnavailable: 1}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx
        resources: {requests: {cpu: 0.5, memory: 128Mi}}
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  ports: [{port: 80, targetPort: http}]
  selector: {app: web}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-preserve-unknown-fields: true
            properties:
              size: {type: integer, minimum: 1}
              tags: {type: array, items: {type: string}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: bad}
spec:
  replicas: three
  selector: {matchLabels: {app: web}}
  template: {metadata: {labels: {app: web}}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: typo}
datas: {a: b}
`
	want := []validator.Status{validator.Valid, validator.Valid, validator.Valid, validator.Invalid, validator.Invalid}
	results := v.Validate("test.yaml", io.NopCloser(strings.NewReader(manifests)))
	if len(results) != len(want) {
		t.Fatalf("%d results, want %d", len(results), len(want))
	}
	for i, r := range results {
		if r.Status != want[i] {
			t.Errorf("document %d: status %v (%v), want %v", i, r.Status, r.Err, want[i])
		}
	}
}

// BenchmarkCompileDeployment measures what kubeconform pays per kind.
func BenchmarkCompileDeployment(b *testing.B) {
	path := filepath.Join(schemaDir(b), "deployment-apps-v1.json")
	for b.Loop() {
		compile(b, path)
	}
}
