package lint

import (
	"strings"
	"testing"
)

func TestSemanticWorkloads(t *testing.T) {
	runSemanticCases(t, []semanticCase{
		{"selector expression that excludes the template", `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
spec:
  serviceName: db
  selector:
    matchExpressions:
    - {key: tier, operator: NotIn, values: [backend]}
  template:
    metadata:
      labels: {tier: backend}
    spec:
      containers: [{name: db, image: example.com/db:1}]
`, []string{"12:7 invalid-value spec.template.metadata.labels: Invalid value: `selector` does not match template `labels`"}},
		{"empty selector, bad strategy, restartPolicy Never", `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector: {}
  strategy:
    type: Recreate
    rollingUpdate: {maxSurge: 1}
  template:
    metadata:
      labels: {app: web}
    spec:
      restartPolicy: Never
      containers: [{name: web, image: example.com/web:1}]
`, []string{
			`6:3 invalid-value spec.selector: Invalid value: {}: empty selector is invalid for deployment`,
			`9:5 invalid-value spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy`,
			`14:22 invalid-value restartPolicy: Unsupported value: "Never": supported values: "Always"`,
		}},
		{"a Job with a manual selector that misses, restartPolicy Always", `apiVersion: batch/v1
kind: Job
metadata:
  name: report
spec:
  manualSelector: true
  selector:
    matchLabels: {job: report}
  template:
    metadata:
      labels: {job: reports}
    spec:
      restartPolicy: Always
      containers: [{name: report, image: example.com/report:1}]
`, []string{
			"11:21 invalid-value `selector` does not match template `labels`",
			`13:22 invalid-value restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never"`,
		}},
		{"a CronJob whose Job template has no restartPolicy, bad policy and schedule", `apiVersion: batch/v1
kind: CronJob
metadata:
  name: nightly
spec:
  schedule: "every night"
  concurrencyPolicy: Never
  jobTemplate:
    spec:
      template:
        spec:
          containers: [{name: job, image: example.com/job:1}]
`, []string{
			`6:13 invalid-value spec.schedule: Invalid value: "every night": expected exactly 5 fields`,
			`7:22 invalid-value spec.concurrencyPolicy: Unsupported value: "Never"`,
			`11:9 invalid-value restartPolicy: Required value`,
		}},
		{"a StatefulSet mounting its claim template, volume named as the claim without claimName", `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
spec:
  serviceName: db
  selector:
    matchLabels: {app: db}
  template:
    metadata:
      labels: {app: db}
    spec:
      containers:
      - name: db
        image: example.com/db:1
        volumeMounts: [{name: data, mountPath: /var/lib/db}]
      volumes:
      - name: data
        persistentVolumeClaim: {}
  volumeClaimTemplates:
  - metadata: {name: data}
    spec:
      accessModes: [ReadWriteOnce]
      resources: {requests: {storage: 1Gi}}
`, nil},
		{"a claim template without access modes and with a zero size", `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
spec:
  serviceName: db
  selector:
    matchLabels: {app: db}
  template:
    metadata:
      labels: {app: db}
    spec:
      containers: [{name: db, image: example.com/db:1}]
  volumeClaimTemplates:
  - metadata: {name: data}
    spec:
      resources: {requests: {storage: "0"}}
`, []string{
			`16:5 invalid-value volumeClaimTemplates[0].spec.accessModes: Required value`,
			`17:39 invalid-value storage: Invalid value: "0": must be greater than zero`,
		}},
	})
}

func TestSemanticServicesAndNetworking(t *testing.T) {
	runSemanticCases(t, []semanticCase{
		{"Service: enum, ports", `apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  type: Nodeport
  ports:
  - {port: 0, targetPort: http_port}
  - {name: metrics, port: 9090, nodePort: 30090}
`, []string{
			`6:9 invalid-value spec.type: Unsupported value: "Nodeport"`,
			`8:5 invalid-value spec.ports[0].name: Required value: name every port`,
			`8:12 invalid-value spec.ports[0].port: Invalid value: 0: must be between 1 and 65535`,
			`8:27 invalid-value targetPort: Invalid value: "http_port"`,
		}},
		{"Service: nodePort on a ClusterIP, a node port out of range warns", `apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  ports:
  - {port: 80, nodePort: 30080}
---
apiVersion: v1
kind: Service
metadata:
  name: edge
spec:
  type: NodePort
  ports:
  - {port: 80, nodePort: 80000}
`, []string{
			`7:26 invalid-value nodePort: Forbidden: may not be used when ` + "`type`" + ` is 'ClusterIP'`,
			`16:26 invalid-value nodePort: Invalid value: 80000: not in the node port range`,
		}},
		{"valid Services: an empty targetPort (defaults to port), a local policy with externalIPs, a headless one without ports", `apiVersion: v1
kind: Service
metadata:
  name: 1web
spec:
  externalIPs: [192.0.2.10]
  externalTrafficPolicy: Local
  ports: [{port: 80, targetPort: ""}]
---
apiVersion: v1
kind: Service
metadata:
  name: db
spec:
  clusterIP: None
  selector: {app: db}
`, nil},
		{"Ingress: missing pathType, relative path, both port fields", `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: web
spec:
  rules:
  - host: Shop.example.com
    http:
      paths:
      - path: shop
        pathType: Prefix
        backend: {service: {name: web, port: {number: 80, name: http}}}
      - path: /api
        backend: {service: {name: api, port: {number: 8080}}}
`, []string{
			`7:11 invalid-value spec.rules[0].host: Invalid value: "Shop.example.com"`,
			`10:15 invalid-value path: Invalid value: "shop": must be an absolute path`,
			`12:40 invalid-value port: Invalid value: cannot set both port name & port number`,
			`13:9 schema missing required field "pathType"`,
		}},
		{"NetworkPolicy: policy type, endPort below port, except outside cidr", `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: db
spec:
  podSelector: {matchLabels: {app: db}}
  policyTypes: [Ingress, egress]
  egress:
  - to:
    - ipBlock: {cidr: 10.0.0.0/16, except: [10.1.0.0/24]}
    ports:
    - {protocol: TCP, port: 5432, endPort: 5400}
`, []string{
			`7:26 invalid-value spec.policyTypes[1]: Unsupported value: "egress"`,
			`10:45 invalid-value except[0]: Invalid value: "10.1.0.0/24": must be a strict subset of ` + "`cidr`",
			`12:44 invalid-value endPort: Invalid value: 5400: must be greater than or equal to ` + "`port`",
		}},
	})
}

func TestSemanticOtherKinds(t *testing.T) {
	runSemanticCases(t, []semanticCase{
		{"RBAC: a Role with URLs, a binding's kinds, a ClusterRoleBinding's ServiceAccount without namespace; ':' in names is fine", `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: app:reader
rules:
- nonResourceURLs: [/healthz]
  verbs: [get]
- apiGroups: [apps]
  verbs: [get]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: app:reader
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: app:reader}
subjects:
- {kind: ServiceAccount, name: app}
- {kind: Robot, name: r2d2}
`, []string{
			`6:3 invalid-value rules[0].nonResourceURLs: Invalid value: namespaced rules cannot apply to non-resource URLs`,
			`8:3 invalid-value rules[1].resources: Required value`,
			`15:54 invalid-value roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"`,
			`17:3 invalid-value subjects[0].namespace: Required value`,
			`18:10 invalid-value subjects[1].kind: Unsupported value: "Robot"`,
		}},
		{"HPA: apiVersion without a group, max below min, a target without a value", `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: web
spec:
  scaleTargetRef: {apiVersion: v1, kind: Deployment, name: web}
  minReplicas: 3
  maxReplicas: 2
  metrics:
  - type: Resource
    resource:
      name: cpu
      target: {type: Utilization}
`, []string{
			`6:32 invalid-value scaleTargetRef.apiVersion: Required value: apiVersion must specify API group`,
			`8:16 invalid-value spec.maxReplicas: Invalid value: 2: must be greater than or equal to ` + "`minReplicas`",
			`13:7 invalid-value target.averageUtilization: Required value`,
		}},
		{"PDB: both bounds, a percent over 100; its name is only a path segment", `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: Web_PDB
spec:
  minAvailable: 120%
  maxUnavailable: 1
  selector: {matchLabels: {app: web}}
`, []string{
			`6:17 invalid-value spec.minAvailable: Invalid value: "120%": must not be greater than 100%`,
			`7:19 invalid-value spec.maxUnavailable: Invalid value: minAvailable and maxUnavailable cannot be both set`,
		}},
		{"Namespace: Pod Security labels; a Job name too long for its pods' label; an empty container name", `apiVersion: v1
kind: Namespace
metadata:
  name: shop
  labels:
    pod-security.kubernetes.io/enforce: strict
    pod-security.kubernetes.io/warn: restricted
    pod-security.kubernetes.io/warn-version: "1.30"
---
apiVersion: batch/v1
kind: Job
metadata:
  name: ` + strings.Repeat("j", 64) + `
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{name: "", image: example.com/job:1}]
`, []string{
			`6:41 invalid-value metadata.labels["pod-security.kubernetes.io/enforce"]: Invalid value: "strict": must be one of privileged, baseline, restricted`,
			`8:46 invalid-value Invalid value: "1.30": must be "latest" or "v1.x"`,
			`13:9 invalid-value metadata.name: Invalid value: must be no more than 63 characters: the Job's pods get its name as the label batch.kubernetes.io/job-name`,
			`18:27 invalid-value spec.template.spec.containers[0].name: Required value`,
		}},
		{"ConfigMap and Secret keys; PVC access mode and size", `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  app.properties: x
  "bad key": y
binaryData:
  app.properties: eA==
---
apiVersion: v1
kind: Secret
metadata:
  name: creds
stringData:
  "tls/key": x
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
spec:
  accessModes: [ReadWriteSometimes]
  resources: {requests: {storage: 10GB}}
`, []string{
			`7:3 invalid-value data["bad key"]: Invalid value: "bad key": a valid config key must consist of alphanumeric`,
			`9:3 invalid-value binaryData["app.properties"]: Invalid value: "app.properties": duplicate of key present in data`,
			`16:3 invalid-value stringData["tls/key"]: Invalid value: "tls/key"`,
			`23:17 invalid-value spec.accessModes[0]: Unsupported value: "ReadWriteSometimes"`,
			`24:35 invalid-value storage: Invalid value: "10GB": quantities must match the regular expression`,
		}},
	})
}
