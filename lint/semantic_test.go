package lint

import (
	"testing"
)

// semanticCase is one manifest and the invalid-value findings it gets,
// each "line:col rule substring".
type semanticCase struct {
	name, src string
	want      []string
}

func runSemanticCases(t *testing.T, cases []semanticCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep := lintSrc(t, c.src, Options{})
			wantFindings(t, semanticOnly(rep, ruleInvalidValue, "schema", ruleInvalidMeta), c.want...)
		})
	}
}

const semPodHead = `apiVersion: v1
kind: Pod
metadata:
  name: api
spec:
`

func TestSemanticContainers(t *testing.T) {
	runSemanticCases(t, []semanticCase{
		{"request over limit and a negative limit", semPodHead + `  containers:
  - name: api
    image: example.com/api:1
    resources:
      requests: {cpu: "2", memory: 256Mi}
      limits: {cpu: "1", memory: -1Gi}
`, []string{
			`10:23 invalid-value requests.cpu: Invalid value: "2": must be less than or equal to cpu limit of 1`,
			`11:34 invalid-value limits.memory: Invalid value: "-1Gi": must be greater than or equal to 0`,
		}},
		{"resource name without a domain", semPodHead + `  containers:
  - name: api
    image: example.com/api:1
    resources:
      limits: {gpu: "1"}
`, []string{`10:16 invalid-value limits.gpu: Invalid value: "gpu": must be a standard resource type`}},
		{"port out of range, bad and duplicate port names, protocol", semPodHead + `  containers:
  - name: api
    image: example.com/api:1
    ports:
    - {name: http, containerPort: 70000}
    - {name: http, containerPort: 8081, protocol: tcp}
    - {name: metrics_port, containerPort: 9090}
`, []string{
			`10:35 invalid-value containerPort: Invalid value: 70000: must be between 1 and 65535`,
			`11:14 invalid-value ports[1].name: Duplicate value: "http"`,
			`11:51 invalid-value protocol: Unsupported value: "tcp": supported values: "SCTP", "TCP", "UDP"`,
			`12:14 invalid-value ports[2].name: Invalid value: "metrics_port"`,
		}},
		{"duplicate container names across init containers", semPodHead + `  initContainers:
  - {name: api, image: example.com/migrate:1}
  containers:
  - {name: api, image: example.com/api:1}
  - {name: Sidecar, image: example.com/proxy:1}
`, []string{
			`9:12 invalid-value containers[0].name: Duplicate value: "api"`,
			`10:12 invalid-value containers[1].name: Invalid value: "Sidecar": a lowercase RFC 1123 label`,
		}},
		{"mount of an undeclared volume, duplicate mount path", semPodHead + `  containers:
  - name: api
    image: example.com/api:1
    volumeMounts:
    - {name: config, mountPath: /etc/api}
    - {name: cache, mountPath: /etc/api}
  volumes:
  - name: config
    configMap: {name: api}
`, []string{
			`11:14 invalid-value volumeMounts[1].name: Not found: "cache"`,
			`11:32 invalid-value volumeMounts[1].mountPath: Invalid value: "/etc/api": must be unique`,
		}},
		{"probe without a handler, port 0, exec without command", semPodHead + `  containers:
  - name: api
    image: example.com/api:1
    readinessProbe:
      periodSeconds: 5
    livenessProbe:
      httpGet: {path: /live, port: 0}
    startupProbe:
      exec: {}
`, []string{
			`9:5 invalid-value readinessProbe: Required value: must specify a handler type`,
			`12:36 invalid-value livenessProbe.httpGet.port: Invalid value: 0: must be between 1 and 65535`,
			`14:7 invalid-value startupProbe.exec.command: Required value`,
		}},
		{"env: a name with '=', two sources, duplicate name, a bad field", semPodHead + `  containers:
  - name: api
    image: example.com/api:1
    env:
    - {name: "A=B", value: x}
    - name: NODE
      valueFrom:
        fieldRef: {fieldPath: spec.hostname}
        secretKeyRef: {name: node, key: name}
    - {name: NODE, value: y}
`, []string{
			`10:14 invalid-value env[0].name: Invalid value: "A=B"`,
			`12:7 invalid-value valueFrom: Invalid value: may not have more than one field`,
			`13:31 invalid-value fieldRef.fieldPath: Unsupported value: "spec.hostname"`,
			`15:14 invalid-value env[2].name: Duplicate value: "NODE"`,
		}},
		{"enums of the pod and its tolerations", semPodHead + `  restartPolicy: Sometimes
  dnsPolicy: ClusterFirstWithHostnet
  tolerations:
  - {operator: Equal, value: x, effect: NoScheduled}
  containers:
  - {name: api, image: example.com/api:1, imagePullPolicy: always}
`, []string{
			`6:18 invalid-value restartPolicy: Unsupported value: "Sometimes"`,
			`7:14 invalid-value dnsPolicy: Unsupported value: "ClusterFirstWithHostnet"`,
			`9:16 invalid-value tolerations[0].operator: Invalid value: "Equal": operator must be Exists when ` + "`key`" + ` is empty`,
			`9:41 invalid-value tolerations[0].effect: Unsupported value: "NoScheduled"`,
			`11:60 invalid-value imagePullPolicy: Unsupported value: "always"`,
		}},
		{"a valid pod: sidecar, volume without a source, empty label value, header without value", `apiVersion: v1
kind: Pod
metadata:
  name: api
  labels: {canary: ""}
spec:
  initContainers:
  - {name: proxy, image: example.com/proxy:1, restartPolicy: Always}
  containers:
  - name: api
    image: example.com/api:1
    env:
    - {name: my.setting-1, value: x}
    - name: LABEL_APP
      valueFrom: {fieldRef: {fieldPath: "metadata.labels['app']"}}
    - name: CPU
      valueFrom: {resourceFieldRef: {resource: limits.cpu, divisor: 1m}}
    livenessProbe:
      httpGet:
        path: /live
        port: http
        httpHeaders: [{name: X-Probe}]
    ports: [{name: http, containerPort: 8080}]
    resources:
      requests: {cpu: 250m, memory: 1Gi, example.com/gpu: "1"}
      limits: {cpu: 500m, memory: 1Gi, example.com/gpu: "1"}
    volumeMounts: [{name: scratch, mountPath: /tmp}]
  volumes:
  - name: scratch
`, nil},
	})
}
