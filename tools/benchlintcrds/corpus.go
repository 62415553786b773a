package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// The corpus has the shape of rendered kubeflow/manifests (make
// bench-lint-crds-real measures the real thing): a few large component
// files holding a dozen CRDs each beside their controllers, with long
// descriptions wrapped as kubectl kustomize writes them (multi-line plain
// scalars); application files holding custom resources of a quarter of
// those kinds (kubeflow's install uses 17 of its 74 CRDs) and built-in
// objects; and, last, the Namespace of the controllers with pod-security
// labels, read after the pods it governs as kubeflow's is.
const (
	numCRDs        = 100
	crdsPerFile    = 12
	appFiles       = 163
	crsPerAppFile  = 10
	usedKindMod    = 4 // CRD n has custom resources when n%usedKindMod == 1
	defectInterval = 150
	wrapWidth      = 80 // kubectl kustomize's line width for long strings
)

var groups = []string{"kubeflow.bench.dev", "serving.bench.dev", "training.bench.dev", "pipelines.bench.dev",
	"networking.bench.dev", "security.bench.dev", "eventing.bench.dev", "katib.bench.dev"}

var kindWords = []string{"Notebook", "Profile", "Experiment", "Trial", "Suggestion", "PyTorchJob", "TFJob", "MPIJob",
	"Workflow", "Inference", "Gateway", "Route", "Policy", "Broker", "Trigger", "Pipeline"}

// crdType is one generated custom resource type.
type crdType struct {
	n        int
	group    string
	kind     string
	plural   string
	versions []string // the first is the one custom resources use
}

func crdTypes() []crdType {
	out := make([]crdType, numCRDs)
	for n := range out {
		kind := fmt.Sprintf("%s%d", kindWords[n%len(kindWords)], n/len(kindWords))
		vs := []string{"v1"}
		if n%4 == 0 {
			vs = append(vs, "v1beta1")
		}
		out[n] = crdType{n: n, group: groups[n%len(groups)], kind: kind, plural: strings.ToLower(kind) + "s", versions: vs}
	}
	return out
}

// used reports whether custom resources of t are in the corpus.
func (t crdType) used() bool { return t.n%usedKindMod == 1 }

func (t crdType) crd() map[string]any {
	var versions []any
	for i, v := range t.versions {
		versions = append(versions, map[string]any{
			"name": v, "served": true, "storage": i == 0,
			"schema":       map[string]any{"openAPIV3Schema": crdSchema(t.n)},
			"subresources": map[string]any{"status": map[string]any{}},
		})
	}
	return map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1",
		"kind":       "CustomResourceDefinition",
		"metadata":   map[string]any{"name": t.plural + "." + t.group, "labels": map[string]any{"app.kubernetes.io/part-of": "bench"}},
		"spec": map[string]any{
			"group": t.group, "scope": "Namespaced",
			"names":    map[string]any{"kind": t.kind, "plural": t.plural, "singular": strings.ToLower(t.kind), "listKind": t.kind + "List"},
			"versions": versions,
		},
	}
}

// manifestInfo is what the generator wrote.
type manifestInfo struct {
	Files, Objects, CRDs, CRDVersions, CRs, UsedKinds int
	Bytes, CRDBytes                                   int64
	Invalid                                           map[string]int // by defect
	InvalidObjects                                    []string       // kind/namespace/name
	Source                                            string         // a real corpus's origin (-real), else ""
}

// generate writes the corpus into dir (replacing it).
func generate(dir string) (*manifestInfo, error) {
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	m := &manifestInfo{Invalid: map[string]int{}}
	types := crdTypes()
	var used []crdType
	for _, t := range types {
		if t.used() {
			used = append(used, t)
		}
	}
	m.UsedKinds = len(used)
	write := func(name string, docs []string) error {
		b := []byte(strings.Join(docs, "---\n"))
		m.Files++
		m.Objects += len(docs)
		m.Bytes += int64(len(b))
		return os.WriteFile(filepath.Join(dir, name), b, 0o644)
	}
	for f := 0; f*crdsPerFile < len(types); f++ {
		comp := fmt.Sprintf("component-%02d", f)
		var docs []string
		for _, t := range types[f*crdsPerFile : min(len(types), (f+1)*crdsPerFile)] {
			b, err := yaml.Marshal(t.crd())
			if err != nil {
				return nil, err
			}
			doc := wrapDescriptions(string(b))
			docs = append(docs, doc)
			m.CRDs++
			m.CRDVersions += len(t.versions)
			m.CRDBytes += int64(len(doc))
		}
		docs = append(docs, builtins(comp, "kubeflow-system")...)
		if err := write(fmt.Sprintf("%03d-%s.yaml", f, comp), docs); err != nil {
			return nil, err
		}
	}
	cr := 0
	for f := range appFiles {
		ns := fmt.Sprintf("team-%03d", f)
		var docs []string
		for j := range crsPerAppFile {
			t := used[(f*3+j)%len(used)]
			defect := ""
			if cr%defectInterval == defectInterval/2 {
				defect = defects[(cr/defectInterval)%len(defects)]
				m.Invalid[defect]++
				m.InvalidObjects = append(m.InvalidObjects, fmt.Sprintf("%s/%s/%s", t.kind, ns, crName(t, j)))
			}
			b, err := yaml.Marshal(customResource(t, ns, j, defect))
			if err != nil {
				return nil, err
			}
			docs = append(docs, string(b))
			cr++
		}
		docs = append(docs, builtins(fmt.Sprintf("app-%03d", f), ns)[:3]...)
		if err := write(fmt.Sprintf("app-%03d.yaml", f), docs); err != nil {
			return nil, err
		}
	}
	m.CRs = cr
	if err := write("zz-namespace.yaml", []string{`apiVersion: v1
kind: Namespace
metadata:
  name: kubeflow-system
  labels:
    pod-security.kubernetes.io/warn: restricted
`}); err != nil {
		return nil, err
	}
	return m, nil
}

// wrapDescriptions folds each long plain description of a YAML document
// over lines of about wrapWidth (deep ones a little wider), as kubectl
// kustomize writes them: the same string, as a multi-line plain scalar.
func wrapDescriptions(doc string) string {
	lines := strings.Split(doc, "\n")
	var out []string
	for _, line := range lines {
		key := strings.Index(line, "description: ")
		if key < 0 || strings.TrimLeft(line[:key], " -") != "" || len(line) <= wrapWidth {
			out = append(out, line)
			continue
		}
		value := line[key+len("description: "):]
		if strings.ContainsAny(value[:1], "'\"|>") || strings.Contains(value, ": ") || strings.Contains(value, " #") {
			out = append(out, line)
			continue
		}
		indent := strings.Repeat(" ", key+2)
		width := max(wrapWidth, len(indent)+40) // a deep line keeps some words
		cur := line[:key+len("description: ")]
		first := true
		for _, w := range strings.Fields(value) {
			switch {
			case first:
				cur += w
				first = false
			case len(cur)+1+len(w) > width:
				out = append(out, cur)
				cur = indent + w
			default:
				cur += " " + w
			}
		}
		out = append(out, cur)
	}
	return strings.Join(out, "\n")
}

// builtins are a component's built-in objects: Deployment, Service,
// ConfigMap, ServiceAccount, ClusterRole, ClusterRoleBinding.
func builtins(name, ns string) []string {
	return []string{
		fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: %[1]s
  namespace: %[2]s
  labels: {app: %[1]s}
spec:
  replicas: 2
  selector:
    matchLabels: {app: %[1]s}
  template:
    metadata:
      labels: {app: %[1]s}
    spec:
      serviceAccountName: %[1]s
      containers:
      - name: manager
        image: registry.example/%[1]s:v1.2.3
        args: ["--metrics-bind-address=:8080", "--leader-elect"]
        ports:
        - {name: metrics, containerPort: 8080}
        resources:
          requests: {cpu: 100m, memory: 128Mi}
          limits: {cpu: "1", memory: 512Mi}
        readinessProbe:
          httpGet: {path: /readyz, port: 8081}
`, name, ns),
		fmt.Sprintf(`apiVersion: v1
kind: Service
metadata:
  name: %[1]s
  namespace: %[2]s
spec:
  selector: {app: %[1]s}
  ports:
  - {name: metrics, port: 8080, targetPort: 8080}
`, name, ns),
		fmt.Sprintf(`apiVersion: v1
kind: ConfigMap
metadata:
  name: %[1]s-config
  namespace: %[2]s
data:
  config.yaml: |
    logLevel: info
    component: %[1]s
`, name, ns),
		fmt.Sprintf(`apiVersion: v1
kind: ServiceAccount
metadata:
  name: %[1]s
  namespace: %[2]s
`, name, ns),
		fmt.Sprintf(`apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: %[1]s
rules:
- apiGroups: ["*"]
  resources: ["*"]
  verbs: [get, list, watch]
`, name),
		fmt.Sprintf(`apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: %[1]s
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: %[1]s}
subjects:
- {kind: ServiceAccount, name: %[1]s, namespace: %[2]s}
`, name, ns),
	}
}
