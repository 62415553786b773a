package lint

import (
	"fmt"
	"strings"
	"testing"
)

// metaOnly keeps the findings of the object-meta rules, as
// "line:col rule message".
func metaOnly(rep Report) []string {
	var out []string
	for _, f := range rep.Findings {
		if f.Rule == ruleInvalidMeta || f.Rule == ruleSecretData {
			out = append(out, fmt.Sprintf("%d:%d %s %s", f.Line, f.Col, f.Rule, f.Message))
		}
	}
	return out
}

func TestMetaFindings(t *testing.T) {
	long := strings.Repeat("a", 64)
	cases := []struct {
		name, src string
		want      []string // "line:col rule message-substring"
	}{
		{"uppercase name", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-A\n",
			[]string{"4:9 invalid-meta metadata.name: \"from-A\" is not a valid ConfigMap name (a DNS-1123 subdomain): a lowercase RFC 1123 subdomain"}},
		{"service name with a dot", "apiVersion: v1\nkind: Service\nmetadata:\n  name: web.v1\nspec:\n  ports: [{port: 80}]\n",
			[]string{"4:9 invalid-meta a DNS-1123 label"}},
		{"service name starting with a digit (1.37 accepts it)", "apiVersion: v1\nkind: Service\nmetadata:\n  name: 1web\nspec:\n  ports: [{port: 80}]\n",
			nil},
		{"statefulset name with a dot", "apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: db.v2\nspec:\n  serviceName: db\n  selector: {matchLabels: {app: db}}\n  template:\n    metadata: {labels: {app: db}}\n    spec:\n      containers: [{name: db, image: db}]\n",
			[]string{"4:9 invalid-meta a DNS-1123 label"}},
		{"namespace name with a dot", "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team.a\n",
			[]string{"4:9 invalid-meta a DNS-1123 label"}},
		{"bad namespace field", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: Team_A\n",
			[]string{"5:14 invalid-meta metadata.namespace: \"Team_A\" is not a valid namespace name"}},
		{"bad generateName", "apiVersion: batch/v1\nkind: Job\nmetadata:\n  generateName: Migrate-\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers: [{name: m, image: \"busybox:1.36\"}]\n",
			[]string{"4:17 invalid-meta metadata.generateName: \"Migrate-\" is not a valid Job generateName"}},
		{"label value too long", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  labels:\n    tier: " + long + "\n",
			[]string{"6:11 invalid-meta metadata.labels.tier: label value must be no more than 63 bytes"}},
		{"label key with two slashes", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  labels:\n    a/b/c: x\n",
			[]string{"6:5 invalid-meta label key"}},
		{"annotation key with a space", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  annotations:\n    \"bad key\": x\n",
			[]string{"6:5 invalid-meta annotation key"}},
		{"annotations over 256 KiB", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  annotations:\n    a: " + strings.Repeat("x", 200<<10) + "\n    b: " + strings.Repeat("x", 60<<10) + "\n",
			[]string{"5:3 invalid-meta annotations total 266242 bytes"}},
		{"CronJob name over 52", "apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: " + strings.Repeat("c", 53) + "\nspec:\n  schedule: \"@daily\"\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: Never\n          containers: [{name: m, image: \"busybox:1.36\"}]\n",
			[]string{"4:9 invalid-meta no more than 52 characters"}},
		{"custom resource name", "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: My_Widget\n",
			[]string{"4:9 invalid-meta a DNS-1123 subdomain"}},
		{"secret data not base64", "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  password: not base64!\n  ok: aHVudGVyMg==\n",
			[]string{"6:13 secret-data-not-base64 data.password: is not valid base64"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := metaOnly(lintSrc(t, c.src, Options{IgnoreMissingSchemas: true}))
			if len(got) != len(c.want) {
				t.Fatalf("got %d findings, want %d:\n%s", len(got), len(c.want), strings.Join(got, "\n"))
			}
			for i, w := range c.want {
				pos, rest, _ := strings.Cut(w, " ")
				rule, msg, _ := strings.Cut(rest, " ")
				if !strings.HasPrefix(got[i], pos+" "+rule+" ") || !strings.Contains(got[i], msg) {
					t.Errorf("finding %q, want %q", got[i], w)
				}
			}
		})
	}
}

func TestSecretDataMessageHidesValue(t *testing.T) {
	rep := lintSrc(t, "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  password: hunter2 is secret!\n", Options{})
	for _, f := range rep.Findings {
		if strings.Contains(f.Message, "hunter2") {
			t.Fatalf("a finding quotes the Secret value: %s", f.Message)
		}
	}
	if len(metaOnly(rep)) != 1 {
		t.Fatalf("want one secret-data-not-base64 finding, got %v", rep.Findings)
	}
}

// Real-world names must pass: RBAC names with colons, dotted names,
// generateName ending in "-", well-known label and annotation keys.
func TestMetaValidRealWorld(t *testing.T) {
	src := `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: system:aggregate-to-edit
  labels:
    rbac.authorization.k8s.io/aggregate-to-edit: "true"
rules: []
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: kube-root-ca.crt
  namespace: kube-system
  labels:
    app.kubernetes.io/name: web
    app.kubernetes.io/version: 1.2.3
    empty: ""
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: "{}"
    Example.COM/Mixed-Case: yes
---
apiVersion: v1
kind: Secret
metadata:
  name: sh.helm.release.v1.web.v1
data:
  k: aHVudGVyMg==
  wrapped: "aHVudGVy\nMg=="
  empty: ""
---
apiVersion: batch/v1
kind: Job
metadata:
  generateName: migrate-
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{name: m, image: "busybox:1.36"}]
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  ports: [{port: 80}]
---
apiVersion: networking.k8s.io/v1
kind: IPAddress
metadata:
  name: "2001:db8::1"
spec:
  parentRef: {resource: services, name: web, namespace: default}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web.example.com
`
	if got := metaOnly(lintSrc(t, src, Options{IgnoreMissingSchemas: true})); len(got) != 0 {
		t.Fatalf("valid metadata flagged:\n%s", strings.Join(got, "\n"))
	}
}
