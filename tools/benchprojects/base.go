package main

import (
	"fmt"
	"strings"
)

// base is the files of one app's base: the objects every overlay of it
// renders, with names that all start with the app's name (flat.go relies on
// that to rename them).
func base(app string, s spec) map[string]string {
	var cms strings.Builder
	for i := 0; i < s.ConfigMaps; i++ {
		if i > 0 {
			cms.WriteString("---\n")
		}
		fmt.Fprintf(&cms, `apiVersion: v1
kind: ConfigMap
metadata:
  name: %[1]s-%[2]s
  labels: {app.kubernetes.io/part-of: %[1]s}
data:
  %[3]s
`, app, configNames[i%len(configNames)]+suffix(i), configData(app, i))
	}
	return map[string]string{
		"kustomization.yaml": fmt.Sprintf(`apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
labels:
- pairs: {app.kubernetes.io/name: %[1]s}
resources:
- serviceaccount.yaml
- rbac.yaml
- config.yaml
- web.yaml
- worker.yaml
- policy.yaml
configMapGenerator:
- name: %[1]s-env
  literals:
  - LOG_LEVEL=info
  - HTTP_ADDR=:8080
`, app),
		"serviceaccount.yaml": fmt.Sprintf(`apiVersion: v1
kind: ServiceAccount
metadata:
  name: %s-sa
automountServiceAccountToken: false
`, app),
		"rbac.yaml": fmt.Sprintf(`apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: %[1]s-reader
rules:
- apiGroups: [""]
  resources: [configmaps]
  verbs: [get, list, watch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: %[1]s-reader
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: %[1]s-reader
subjects:
- kind: ServiceAccount
  name: %[1]s-sa
`, app),
		"config.yaml": cms.String(),
		"web.yaml":    deployment(app, "web", 1) + "---\n" + service(app, "web", false) + "---\n" + service(app, "web-headless", true),
		"worker.yaml": deployment(app, "worker", 1),
		"policy.yaml": fmt.Sprintf(`apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: %[1]s-web
spec:
  maxUnavailable: 1
  selector:
    matchLabels: {app: %[1]s-web}
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: %[1]s-web
spec:
  podSelector:
    matchLabels: {app: %[1]s-web}
  policyTypes: [Ingress]
  ingress:
  - ports:
    - {port: 8080, protocol: TCP}
`, app),
	}
}

var configNames = []string{"feature-flags", "nginx", "logging", "dashboards", "alerts", "limits"}

func suffix(i int) string {
	if i < len(configNames) {
		return ""
	}
	return fmt.Sprintf("-%d", i/len(configNames))
}

func configData(app string, i int) string {
	switch i % len(configNames) {
	case 0:
		return fmt.Sprintf("flags.yaml: |\n    checkout-v2: %t\n    search-suggestions: true\n    rollout-percent: %d", i%4 == 0, (i*7)%100)
	case 1:
		return fmt.Sprintf("default.conf: |\n    server {\n      listen 8080;\n      location / { proxy_pass http://%s-web-headless:8080; }\n    }", app)
	case 2:
		return "LOG_FORMAT: json\n  LOG_SAMPLING: \"100\""
	case 3:
		return fmt.Sprintf("dashboard.json: '{\"title\": \"%s %d\", \"panels\": []}'", app, i)
	case 4:
		return fmt.Sprintf("rules.yaml: |\n    - alert: %sHighErrorRate\n      expr: rate(http_requests_total{code=~\"5..\"}[5m]) > 0.05", strings.ToUpper(app[:1])+app[1:])
	default:
		return fmt.Sprintf("MAX_CONNECTIONS: \"%d\"\n  TIMEOUT_SECONDS: \"30\"", 100+i)
	}
}

func deployment(app, role string, replicas int) string {
	return fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: %[1]s-%[2]s
spec:
  replicas: %[3]d
  selector:
    matchLabels: {app: %[1]s-%[2]s}
  template:
    metadata:
      labels: {app: %[1]s-%[2]s}
    spec:
      serviceAccountName: %[1]s-sa
      containers:
      - name: %[2]s
        image: registry.example.com/shop/%[1]s:1.0.0
        args: [--role=%[2]s]
        envFrom:
        - configMapRef: {name: %[1]s-env}
        ports:
        - {name: http, containerPort: 8080}
        resources:
          requests: {cpu: 50m, memory: 64Mi}
          limits: {memory: 128Mi}
`, app, role, replicas)
}

func service(app, name string, headless bool) string {
	s := fmt.Sprintf(`apiVersion: v1
kind: Service
metadata:
  name: %[1]s-%[2]s
spec:
  selector: {app: %[1]s-web}
  ports:
  - {name: http, port: 8080, targetPort: http}
`, app, name)
	if headless {
		s += "  clusterIP: None\n"
	}
	return s
}
