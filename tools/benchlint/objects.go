package main

import (
	"fmt"
	"math/rand"
	"strings"
)

// Defects the generator plants, by kind.
const (
	defectReplicasString = "replicas: three"                    // Deployment
	defectUnknownField   = "unknown field"                      // Deployment container, Service spec, ConfigMap metadata
	defectWrongType      = "wrong type (spec.size: \"large\")"  // Widget
	defectEnum           = "enum (spec.tier: platinum)"         // Widget
	defectRequired       = "missing required field (spec.tier)" // Widget
)

// defectsFor lists, in turn, the defects planted in objects of kind.
var defectsFor = map[string][]string{
	"Deployment": {defectReplicasString, defectUnknownField},
	"Service":    {defectUnknownField},
	"ConfigMap":  {defectUnknownField},
	widgetKind:   {defectWrongType, defectEnum, defectRequired},
}

// obj is one object to write.
type obj struct {
	kind      string
	namespace string
	team      string
	app       string // shared by the Deployment, Service, ConfigMap and Widget of one app
	name      string
	defect    string // "" for a valid object
}

var components = []string{"api", "worker", "frontend", "gateway", "scheduler", "cache", "ingest", "billing"}

var envNames = []string{"LOG_LEVEL", "LOG_FORMAT", "HTTP_PORT", "METRICS_PORT", "DB_HOST", "DB_PORT", "DB_NAME",
	"CACHE_URL", "FEATURE_FLAGS", "REGION", "TRACING_ENDPOINT", "MAX_CONNECTIONS", "TIMEOUT", "QUEUE_NAME"}

// write appends o as YAML to b.
func (o obj) write(b *strings.Builder, r *rand.Rand) {
	switch o.kind {
	case "Deployment":
		o.deployment(b, r)
	case "Service":
		o.service(b, r)
	case "ConfigMap":
		o.configMap(b, r)
	case widgetKind:
		o.widget(b, r)
	default:
		panic("benchlint: no writer for kind " + o.kind)
	}
}

func (o obj) metadata(b *strings.Builder, version, component string) {
	fmt.Fprintf(b, "metadata:\n  name: %s\n  namespace: %s\n", o.name, o.namespace)
	labels := "labels"
	if o.defect == defectUnknownField && o.kind == "ConfigMap" {
		labels = "lables"
	}
	fmt.Fprintf(b, "  %s:\n    app.kubernetes.io/name: %s\n    app.kubernetes.io/part-of: %s\n", labels, o.app, o.team)
	fmt.Fprintf(b, "    app.kubernetes.io/version: %q\n    app.kubernetes.io/component: %s\n", version, component)
	fmt.Fprintf(b, "  annotations:\n    example.com/owner: %s@example.com\n", o.team)
}

func (o obj) deployment(b *strings.Builder, r *rand.Rand) {
	version := fmt.Sprintf("%d.%d.%d", 1+r.Intn(3), r.Intn(20), r.Intn(10))
	component := components[r.Intn(len(components))]
	b.WriteString("apiVersion: apps/v1\nkind: Deployment\n")
	o.metadata(b, version, component)
	b.WriteString("    example.com/runbook: https://runbooks.example.com/" + o.team + "/" + o.app + "\n")
	b.WriteString("spec:\n")
	if o.defect == defectReplicasString {
		b.WriteString("  replicas: three\n")
	} else {
		fmt.Fprintf(b, "  replicas: %d\n", 1+r.Intn(5))
	}
	fmt.Fprintf(b, `  revisionHistoryLimit: 5
  selector:
    matchLabels:
      app.kubernetes.io/name: %[1]s
  strategy:
    type: RollingUpdate
    rollingUpdate:
      maxSurge: 25%%
      maxUnavailable: 0
  template:
    metadata:
      labels:
        app.kubernetes.io/name: %[1]s
        app.kubernetes.io/part-of: %[2]s
        app.kubernetes.io/version: %[3]q
      annotations:
        prometheus.io/scrape: "true"
        prometheus.io/port: "9090"
    spec:
      serviceAccountName: %[1]s
      terminationGracePeriodSeconds: 30
      securityContext:
        runAsNonRoot: true
        runAsUser: 10001
        fsGroup: 10001
        seccompProfile:
          type: RuntimeDefault
      containers:
`, o.app, o.team, version)
	o.container(b, r, "app", fmt.Sprintf("registry.example.com/%s/%s:%s", o.team, o.app, version), true)
	if r.Intn(10) < 3 {
		o.container(b, r, "proxy", fmt.Sprintf("registry.example.com/platform/envoy:1.%d.%d", 28+r.Intn(4), r.Intn(5)), false)
	}
	fmt.Fprintf(b, `      volumes:
        - name: config
          configMap:
            name: %s-config
        - name: tmp
          emptyDir:
            sizeLimit: 64Mi
`, o.app)
}

func (o obj) container(b *strings.Builder, r *rand.Rand, name, image string, main bool) {
	fmt.Fprintf(b, "        - name: %s\n          image: %s\n          imagePullPolicy: IfNotPresent\n", name, image)
	if main && o.defect == defectUnknownField {
		b.WriteString("          imagePullPolcy: Always\n")
	}
	port := 8080
	if !main {
		port = 15001
	}
	fmt.Fprintf(b, "          args:\n            - --port=%d\n            - --log-level=info\n", port)
	fmt.Fprintf(b, "          ports:\n            - name: http\n              containerPort: %d\n              protocol: TCP\n", port)
	if main {
		b.WriteString("            - name: metrics\n              containerPort: 9090\n              protocol: TCP\n")
		b.WriteString("          env:\n")
		for i, n := 0, 3+r.Intn(8); i < n; i++ {
			env := envNames[(i*5+r.Intn(3))%len(envNames)]
			if r.Intn(3) == 0 {
				fmt.Fprintf(b, "            - name: %s_%d\n              valueFrom:\n                configMapKeyRef:\n                  name: %s-config\n                  key: %s\n",
					env, i, o.app, strings.ToLower(env))
			} else {
				fmt.Fprintf(b, "            - name: %s_%d\n              value: %q\n", env, i, fmt.Sprintf("%s-%d", strings.ToLower(env), r.Intn(1000)))
			}
		}
		b.WriteString("            - name: POD_NAME\n              valueFrom:\n                fieldRef:\n                  fieldPath: metadata.name\n")
		b.WriteString("          envFrom:\n            - configMapRef:\n                name: " + o.app + "-config\n")
	}
	cpu := []int{50, 100, 250, 500}[r.Intn(4)]
	mem := []int{64, 128, 256, 512}[r.Intn(4)]
	fmt.Fprintf(b, `          resources:
            requests:
              cpu: %dm
              memory: %dMi
            limits:
              cpu: %dm
              memory: %dMi
`, cpu, mem, cpu*4, mem*2)
	if main {
		fmt.Fprintf(b, `          readinessProbe:
            httpGet:
              path: /ready
              port: http
            initialDelaySeconds: %d
            periodSeconds: 10
            timeoutSeconds: 2
          livenessProbe:
            httpGet:
              path: /healthz
              port: http
            initialDelaySeconds: %d
            periodSeconds: 20
            failureThreshold: 3
          startupProbe:
            tcpSocket:
              port: 8080
            failureThreshold: 30
            periodSeconds: 5
`, 3+r.Intn(10), 10+r.Intn(20))
	}
	b.WriteString(`          securityContext:
            allowPrivilegeEscalation: false
            readOnlyRootFilesystem: true
            capabilities:
              drop:
                - ALL
          volumeMounts:
            - name: config
              mountPath: /etc/app
              readOnly: true
            - name: tmp
              mountPath: /tmp
`)
}

func (o obj) service(b *strings.Builder, r *rand.Rand) {
	b.WriteString("apiVersion: v1\nkind: Service\n")
	o.metadata(b, "1.0.0", "network")
	b.WriteString("spec:\n  type: ClusterIP\n")
	if o.defect == defectUnknownField {
		b.WriteString("  sessionAfinity: None\n")
	} else {
		b.WriteString("  sessionAffinity: None\n")
	}
	fmt.Fprintf(b, "  selector:\n    app.kubernetes.io/name: %s\n  ports:\n", o.app)
	b.WriteString("    - name: http\n      port: 80\n      targetPort: http\n      protocol: TCP\n")
	if r.Intn(2) == 0 {
		b.WriteString("    - name: metrics\n      port: 9090\n      targetPort: 9090\n      protocol: TCP\n")
	}
}

func (o obj) configMap(b *strings.Builder, r *rand.Rand) {
	b.WriteString("apiVersion: v1\nkind: ConfigMap\n")
	o.metadata(b, "1.0.0", "config")
	b.WriteString("data:\n")
	for i, n := 0, 4+r.Intn(9); i < n; i++ {
		env := envNames[(i*3+r.Intn(2))%len(envNames)]
		fmt.Fprintf(b, "  %s_%d: %q\n", strings.ToLower(env), i, fmt.Sprintf("value-%d-%s", r.Intn(100000), o.app))
	}
	fmt.Fprintf(b, "  app.yaml: |\n    server:\n      port: 8080\n      readTimeout: %ds\n    logging:\n      level: info\n", 5+r.Intn(30))
	for i, n := 0, 2+r.Intn(6); i < n; i++ {
		fmt.Fprintf(b, "    upstream%d:\n      url: http://svc-%d.%s.svc.cluster.local:80\n      retries: %d\n", i, r.Intn(500), o.namespace, r.Intn(5))
	}
}

func (o obj) widget(b *strings.Builder, r *rand.Rand) {
	b.WriteString("apiVersion: " + widgetGroup + "/" + widgetVersion + "\nkind: " + widgetKind + "\n")
	o.metadata(b, "1.0.0", "widget")
	b.WriteString("spec:\n")
	if o.defect == defectWrongType {
		b.WriteString("  size: large\n")
	} else {
		fmt.Fprintf(b, "  size: %d\n", 1+r.Intn(100))
	}
	switch o.defect {
	case defectEnum:
		b.WriteString("  tier: platinum\n")
	case defectRequired:
	default:
		fmt.Fprintf(b, "  tier: %s\n", widgetTiers[r.Intn(len(widgetTiers))])
	}
	fmt.Fprintf(b, "  image: registry.example.com/%s/widget:2.%d.0\n", o.team, r.Intn(9))
	fmt.Fprintf(b, "  shards: %d\n  enabled: %t\n  owner: null\n  retention: %dd\n", 1+r.Intn(8), r.Intn(4) != 0, 1+r.Intn(90))
	b.WriteString("  ports:\n    - name: grpc\n      port: 9000\n      protocol: TCP\n")
	if r.Intn(2) == 0 {
		b.WriteString("    - name: admin\n      port: 9001\n")
	}
	fmt.Fprintf(b, "  labels:\n    team: %s\n    cost-center: cc-%d\n", o.team, r.Intn(100))
}
