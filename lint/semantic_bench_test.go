package lint

import (
	"testing"

	"github.com/kubeplan/kubeplan/manifest"
)

const benchDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web}
spec:
  replicas: 3
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web, tier: frontend}
    spec:
      containers:
      - name: web
        image: example.com/web:1
        ports: [{name: http, containerPort: 8080}, {name: metrics, containerPort: 9090}]
        env:
        - {name: LOG_LEVEL, value: info}
        - name: POD
          valueFrom: {fieldRef: {fieldPath: metadata.name}}
        resources:
          requests: {cpu: 250m, memory: 256Mi}
          limits: {cpu: "1", memory: 512Mi}
        readinessProbe: {httpGet: {path: /healthz, port: http}}
        livenessProbe: {tcpSocket: {port: 8080}}
        volumeMounts: [{name: config, mountPath: /etc/web}]
      - name: proxy
        image: example.com/proxy:1
        resources: {requests: {cpu: 100m}, limits: {memory: 128Mi}}
      volumes:
      - name: config
        configMap: {name: web}
`

// BenchmarkSemanticDeployment measures the semantic checks of one
// realistic Deployment, next to BenchmarkSchemaDeployment (the schema
// validation every built-in object already gets): lint runs both on each
// of the 100,000 objects of the lint benchmark.
func BenchmarkSemanticDeployment(b *testing.B) {
	objs, _ := manifest.Parse("d.yaml", []byte(benchDeployment))
	b.ReportAllocs()
	for b.Loop() {
		if fs := semanticFindings(objs[0], nil); len(fs) != 0 {
			b.Fatal(fs)
		}
	}
}

func BenchmarkSchemaDeployment(b *testing.B) {
	objs, _ := manifest.Parse("d.yaml", []byte(benchDeployment))
	if err := builtins.init(); err != nil {
		b.Fatal(err)
	}
	c, err := builtins.get("apps/v1", "Deployment")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := c.validate(objs[0].Content); err != nil {
			b.Fatal(err)
		}
	}
}
