package plan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

const partOfLabel = "applyset.kubernetes.io/part-of"

type diffCase struct {
	name       string
	live, want map[string]any
	diff       string   // the exact diff, when not ""
	contains   []string // lines the diff must have, when diff is ""
	noDiff     bool
}

func diffCases(t testing.TB) []diffCase {
	deployment := func(f func(m map[string]any)) map[string]any {
		m := dryRunDeployment(t)
		f(m)
		return m
	}
	return []diffCase{
		{name: "deployment: same object from live and dry-run",
			live: decodeFixture(t, liveDeployment), want: dryRunDeployment(t), noDiff: true},
		{name: "deployment: live decoded with int64, dry-run with float64",
			live: decodeFixtureInt(t, liveDeployment), want: dryRunDeployment(t), noDiff: true},
		{name: "deployment: only server and controller fields differ",
			live: decodeFixture(t, liveDeployment),
			want: deployment(func(m map[string]any) {
				md := at(m, "metadata")
				md["resourceVersion"], md["generation"] = "50000", 9.0
				at(md, "annotations")["deployment.kubernetes.io/revision"] = "4"
				at(m, "status")["readyReplicas"] = 1.0
			}), noDiff: true},
		{name: "deployment: replicas 2 -> 3",
			live: decodeFixtureInt(t, liveDeployment),
			want: deployment(func(m map[string]any) {
				at(m, "spec")["replicas"] = 3.0
				at(m, "metadata")["generation"] = 5.0
			}),
			diff: `--- live
+++ planned
@@ -8,7 +8,7 @@
   namespace: shop
 spec:
   progressDeadlineSeconds: 600
-  replicas: 2
+  replicas: 3
   revisionHistoryLimit: 10
   selector:
     matchLabels:
`},
		{name: "deployment: first apply into the ApplySet adds the part-of label",
			live:     editFixture(t, liveDeployment, func(m map[string]any) { delete(at(m, "metadata", "labels"), partOfLabel) }),
			want:     dryRunDeployment(t),
			contains: []string{"+    " + partOfLabel + ": applyset-Hq6Ue7xLQ0AZ1Z3sQmxUoDaHAoLVnsyHr8r9GQnfjb0-v1\n"}},
		{name: "service: labels in another order, part-of on both sides",
			live: decodeFixture(t, liveService),
			want: decodeFixture(t, strings.Replace(liveService,
				`"labels": {"applyset.kubernetes.io/part-of": "applyset-Hq6Ue7xLQ0AZ1Z3sQmxUoDaHAoLVnsyHr8r9GQnfjb0-v1"}`,
				`"labels": {"applyset.kubernetes.io/part-of": "applyset-Hq6Ue7xLQ0AZ1Z3sQmxUoDaHAoLVnsyHr8r9GQnfjb0-v1"}, "annotations": {}`, 1)),
			noDiff: true},
		{name: "service: port added",
			live: decodeFixture(t, liveService),
			want: editFixture(t, liveService, func(m map[string]any) {
				spec := at(m, "spec")
				spec["ports"] = append(spec["ports"].([]any), map[string]any{"name": "metrics", "port": 9090.0, "protocol": "TCP", "targetPort": 9090.0})
			}),
			diff: `--- live
+++ planned
@@ -18,6 +18,10 @@
     port: 80
     protocol: TCP
     targetPort: 8080
+  - name: metrics
+    port: 9090
+    protocol: TCP
+    targetPort: 9090
   selector:
     app: web
   sessionAffinity: None
`},
		{name: "configmap: a line of a file changed",
			live: decodeFixture(t, liveConfigMap),
			want: editFixture(t, liveConfigMap, func(m map[string]any) {
				at(m, "data")["config.yaml"] = "server:\n  port: 8080\n  workers: 8\n"
			}),
			contains: []string{"-      workers: 4\n", "+      workers: 8\n"}},
		{name: "secret: data changed",
			live: decodeFixture(t, liveSecret), want: plannedSecret(t),
			contains: []string{"-  password: '*** (before)'\n", "+  password: '*** (after)'\n", "-  token: '***'\n", "+  newkey: '***'\n"}},
		{name: "secret: unchanged",
			live:   decodeFixture(t, liveSecret),
			want:   editFixture(t, liveSecret, func(m map[string]any) { at(m, "metadata")["resourceVersion"] = "1" }),
			noDiff: true},
		{name: "create",
			want: decodeFixture(t, liveConfigMap),
			diff: `--- /dev/null
+++ planned
@@ -0,0 +1,13 @@
+apiVersion: v1
+data:
+  LOG_LEVEL: info
+  config.yaml: |
+    server:
+      port: 8080
+      workers: 4
+kind: ConfigMap
+metadata:
+  labels:
+    applyset.kubernetes.io/part-of: applyset-Hq6Ue7xLQ0AZ1Z3sQmxUoDaHAoLVnsyHr8r9GQnfjb0-v1
+  name: settings
+  namespace: shop
`},
		{name: "create secret",
			want:     plannedSecret(t),
			contains: []string{"--- /dev/null\n+++ planned\n@@ -0,0 +1,15 @@\n", "+  password: '***'\n"}},
		{name: "prune",
			live:     decodeFixture(t, liveService),
			contains: []string{"--- live\n+++ /dev/null\n@@ -1,24 +0,0 @@\n-apiVersion: v1\n", "-    targetPort: 8080\n"}},
		{name: "prune secret",
			live:     decodeFixture(t, liveSecret),
			contains: []string{"--- live\n+++ /dev/null\n", "-  token: '***'\n"}},
		{name: "nothing", noDiff: true},
	}
}

func TestDiff(t *testing.T) {
	for _, tc := range diffCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			liveJSON, wantJSON := jsonText(t, tc.live), jsonText(t, tc.want)
			got := Diff(tc.live, tc.want)
			if jsonText(t, tc.live) != liveJSON || jsonText(t, tc.want) != wantJSON {
				t.Error("Diff changed its arguments")
			}
			switch {
			case tc.noDiff:
				if got != "" {
					t.Errorf("want no diff, got:\n%s", got)
				}
			case tc.diff != "":
				if got != tc.diff {
					t.Errorf("Diff:\n%s\nwant:\n%s", got, tc.diff)
				}
			default:
				if got == "" {
					t.Fatal("no diff")
				}
				for _, s := range tc.contains {
					if !strings.Contains(got, s) {
						t.Errorf("diff lacks %q:\n%s", s, got)
					}
				}
			}
			if tc.live == nil && got != "" {
				for _, l := range strings.Split(strings.TrimSuffix(got, "\n"), "\n")[3:] {
					if !strings.HasPrefix(l, "+") {
						t.Errorf("create diff has line %q", l)
					}
				}
			}
			if tc.want == nil && got != "" {
				for _, l := range strings.Split(strings.TrimSuffix(got, "\n"), "\n")[3:] {
					if !strings.HasPrefix(l, "-") {
						t.Errorf("prune diff has line %q", l)
					}
				}
			}
			if eq := Equal(tc.live, tc.want); eq != (got == "") {
				t.Errorf("Equal = %v, Diff = %q", eq, got)
			}
			noSecrets(t, got)
		})
	}
}

// TestEqualAgreesWithDiff checks Equal against Diff on the cases above and on
// many random pairs of objects, alike and not.
func TestEqualAgreesWithDiff(t *testing.T) {
	for _, tc := range diffCases(t) {
		for _, p := range [][2]map[string]any{{tc.live, tc.want}, {tc.want, tc.live}, {tc.live, tc.live}, {tc.want, tc.want}} {
			if eq, d := Equal(p[0], p[1]), Diff(p[0], p[1]); eq != (d == "") {
				t.Errorf("%s: Equal = %v, Diff = %q", tc.name, eq, d)
			}
		}
	}
	r := rand.New(rand.NewSource(7))
	var equal, unequal int
	for i := 0; i < 3000; i++ {
		x := randObject(r)
		var y map[string]any
		switch r.Intn(3) {
		case 0: // the same object, written differently
			y = varyValue(r, x).(map[string]any)
		case 1: // a small change, possibly only noise
			y = mutateValue(r, varyValue(r, x)).(map[string]any)
		default:
			y = randObject(r)
		}
		eq, d := Equal(x, y), Diff(x, y)
		if eq != (d == "") {
			t.Fatalf("Equal = %v, Diff = %q\nx = %#v\ny = %#v", eq, d, x, y)
		}
		if eq != Equal(y, x) {
			t.Fatalf("Equal is not symmetric\nx = %#v\ny = %#v", x, y)
		}
		if eq {
			equal++
		} else {
			unequal++
		}
	}
	if equal < 500 || unequal < 500 {
		t.Errorf("random cases too one-sided: %d equal, %d unequal", equal, unequal)
	}
}

var randLeaves = []any{
	"", "a", "b", "3", "3.0", "true", "null", "yes", "~", "x: y", "- a", "multi\nline\n", " lead", "é", "\xff", "\xfe",
	int64(0), int64(3), int64(-3), 2.5, 1e21, 1e-7, int64(1<<53 + 1), float64(1 << 53), 1e300, 0.1,
	true, false, nil,
}

func randValue(r *rand.Rand, depth int) any {
	switch n := r.Intn(10); {
	case depth > 2 || n < 6:
		return randLeaves[r.Intn(len(randLeaves))]
	case n < 8:
		m := map[string]any{}
		for i := r.Intn(4); i > 0; i-- {
			m[fmt.Sprint("k", r.Intn(4))] = randValue(r, depth+1)
		}
		return m
	default:
		l := []any{}
		for i := r.Intn(4); i > 0; i-- {
			l = append(l, randValue(r, depth+1))
		}
		return l
	}
}

func randObject(r *rand.Rand) map[string]any {
	obj := map[string]any{"apiVersion": "v1", "kind": "ConfigMap"}
	if r.Intn(2) == 0 {
		obj["kind"] = "Secret"
	}
	md := map[string]any{"name": "x"}
	if r.Intn(2) == 0 {
		md["labels"] = map[string]any{partOfLabel: "applyset-abc-v1"}
	}
	if r.Intn(2) == 0 {
		ann := map[string]any{}
		if r.Intn(2) == 0 {
			ann[lastAppliedAnnotation] = fmt.Sprintf(`{"data":{"k0":%q,"k1":"b"},"n":3}`, fmt.Sprint(randValue(r, 3)))
		}
		if r.Intn(2) == 0 {
			ann["deployment.kubernetes.io/revision"] = "2"
		}
		md["annotations"] = ann
	}
	obj["metadata"] = md
	for _, f := range []string{"data", "spec", "stringData"} {
		if r.Intn(2) == 0 {
			obj[f] = randValue(r, 1)
		}
	}
	return obj
}

// varyValue returns a deep copy of v written differently but equal: numbers in
// other types, a copy of every map and list.
func varyValue(r *rand.Rand, v any) any {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, e := range v {
			m[k] = varyValue(r, e)
		}
		return m
	case []any:
		l := make([]any, len(v))
		for i, e := range v {
			l[i] = varyValue(r, e)
		}
		return l
	case int64:
		switch r.Intn(4) {
		case 0:
			if float64(v) == float64(int64(float64(v))) && int64(float64(v)) == v {
				return float64(v)
			}
		case 1:
			return int(v)
		case 2:
			return json.Number(fmt.Sprint(v))
		}
	case float64:
		if r.Intn(2) == 0 {
			b, _ := json.Marshal(v)
			return json.Number(b)
		}
	}
	return v
}

// mutateValue changes one random place of v: a value, a key added or removed, or
// noise that Normalize removes.
func mutateValue(r *rand.Rand, v any) any {
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		// Go map order is random; sort for a reproducible test.
		slices.Sort(keys)
		switch n := r.Intn(10); {
		case n == 0:
			v["status"] = map[string]any{"x": 1.0}
		case n == 1:
			v[fmt.Sprint("k", r.Intn(4))] = randValue(r, 2)
		case n == 2 && len(keys) > 0:
			delete(v, keys[r.Intn(len(keys))])
		case len(keys) > 0:
			k := keys[r.Intn(len(keys))]
			v[k] = mutateValue(r, v[k])
		}
		return v
	case []any:
		if len(v) > 0 && r.Intn(3) > 0 {
			i := r.Intn(len(v))
			v[i] = mutateValue(r, v[i])
			return v
		}
		return append(v, randValue(r, 2))
	}
	return randValue(r, 2)
}

func TestSecretValuesNeverInDiff(t *testing.T) {
	live, planned := decodeFixture(t, liveSecret), plannedSecret(t)
	for _, p := range [][2]map[string]any{{live, planned}, {planned, live}, {nil, planned}, {live, nil}, {nil, live}, {planned, nil}} {
		noSecrets(t, Diff(p[0], p[1]))
		b, a := MaskSecret(Normalize(p[0]), Normalize(p[1]))
		noSecrets(t, jsonText(t, b), jsonText(t, a), renderYAML(b), renderYAML(a))
	}
}

func BenchmarkEqual(b *testing.B) {
	live, want := decodeFixtureInt(b, liveDeployment), dryRunDeployment(b)
	for b.Loop() {
		Equal(live, want)
	}
}

func BenchmarkDiff(b *testing.B) {
	live, want := decodeFixtureInt(b, liveDeployment), dryRunDeployment(b)
	at(want, "spec")["replicas"] = 3.0
	for b.Loop() {
		Diff(live, want)
	}
}

// decodeFixture decodes a JSON object the way encoding/json does: numbers are
// float64.
func decodeFixture(t testing.TB, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("fixture: %v", err)
	}
	return m
}

// decodeFixtureInt decodes a JSON object the way the apimachinery decoders do:
// integral numbers are int64.
func decodeFixtureInt(t testing.TB, s string) map[string]any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("fixture: %v", err)
	}
	return fixtureInt64(m).(map[string]any)
}

func fixtureInt64(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			v[k] = fixtureInt64(e)
		}
	case []any:
		for i, e := range v {
			v[i] = fixtureInt64(e)
		}
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return i
		}
		f, _ := v.Float64()
		return f
	}
	return v
}

// editFixture decodes s, applies f to it and returns it.
func editFixture(t testing.TB, s string, f func(m map[string]any)) map[string]any {
	m := decodeFixture(t, s)
	f(m)
	return m
}

func at(m map[string]any, keys ...string) map[string]any {
	for _, k := range keys {
		m = m[k].(map[string]any)
	}
	return m
}

func jsonText(t testing.TB, v any) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// A Deployment as the API server returns it.
const liveDeployment = `{
  "apiVersion": "apps/v1",
  "kind": "Deployment",
  "metadata": {
    "name": "web",
    "namespace": "shop",
    "uid": "0c4bd3a2-2f34-4c8e-9d40-b3b5d0b1e2a7",
    "resourceVersion": "48213",
    "generation": 4,
    "creationTimestamp": "2026-03-02T10:15:00Z",
    "labels": {"app": "web", "applyset.kubernetes.io/part-of": "applyset-Hq6Ue7xLQ0AZ1Z3sQmxUoDaHAoLVnsyHr8r9GQnfjb0-v1"},
    "annotations": {"deployment.kubernetes.io/revision": "3"},
    "managedFields": [
      {"manager": "kubeplan", "operation": "Apply", "apiVersion": "apps/v1", "time": "2026-03-02T10:15:00Z",
       "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:replicas": {}}}},
      {"manager": "kube-controller-manager", "operation": "Update", "apiVersion": "apps/v1", "time": "2026-03-02T10:16:00Z",
       "fieldsType": "FieldsV1", "fieldsV1": {"f:status": {"f:replicas": {}}}, "subresource": "status"}
    ]
  },
  "spec": {
    "replicas": 2,
    "selector": {"matchLabels": {"app": "web"}},
    "template": {
      "metadata": {"creationTimestamp": null, "labels": {"app": "web"}},
      "spec": {
        "containers": [{
          "name": "web",
          "image": "nginx:1.27",
          "ports": [{"containerPort": 80, "protocol": "TCP"}],
          "resources": {"limits": {"cpu": "500m", "memory": "128Mi"}},
          "terminationMessagePath": "/dev/termination-log",
          "terminationMessagePolicy": "File",
          "imagePullPolicy": "IfNotPresent"
        }],
        "restartPolicy": "Always",
        "terminationGracePeriodSeconds": 30,
        "dnsPolicy": "ClusterFirst",
        "securityContext": {},
        "schedulerName": "default-scheduler"
      }
    },
    "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "25%", "maxSurge": "25%"}},
    "revisionHistoryLimit": 10,
    "progressDeadlineSeconds": 600
  },
  "status": {
    "observedGeneration": 4,
    "replicas": 2,
    "updatedReplicas": 2,
    "readyReplicas": 2,
    "availableReplicas": 2,
    "conditions": [{"type": "Available", "status": "True", "lastUpdateTime": "2026-03-02T10:16:00Z",
      "lastTransitionTime": "2026-03-02T10:16:00Z", "reason": "MinimumReplicasAvailable",
      "message": "Deployment has minimum availability."}]
  }
}`

// dryRunDeployment returns the Deployment as a server-side dry-run of the unchanged
// manifest returns it: same spec, new managedFields times.
func dryRunDeployment(t testing.TB) map[string]any {
	return editFixture(t, liveDeployment, func(m map[string]any) {
		md := at(m, "metadata")
		md["managedFields"] = []any{map[string]any{"manager": "kubeplan", "operation": "Apply", "time": "2026-03-09T08:00:00Z"}}
	})
}

const liveService = `{
  "apiVersion": "v1",
  "kind": "Service",
  "metadata": {
    "name": "web", "namespace": "shop", "uid": "7d0c1f5e-7a43-4a8e-8a3f-1a4f3b0f9c11",
    "resourceVersion": "48100", "creationTimestamp": "2026-03-01T09:00:00Z",
    "labels": {"applyset.kubernetes.io/part-of": "applyset-Hq6Ue7xLQ0AZ1Z3sQmxUoDaHAoLVnsyHr8r9GQnfjb0-v1"},
    "managedFields": [{"manager": "kubeplan", "operation": "Apply", "time": "2026-03-01T09:00:00Z"}]
  },
  "spec": {
    "type": "ClusterIP",
    "clusterIP": "10.96.12.34",
    "clusterIPs": ["10.96.12.34"],
    "ipFamilies": ["IPv4"],
    "ipFamilyPolicy": "SingleStack",
    "internalTrafficPolicy": "Cluster",
    "sessionAffinity": "None",
    "selector": {"app": "web"},
    "ports": [{"name": "http", "port": 80, "protocol": "TCP", "targetPort": 8080}]
  },
  "status": {"loadBalancer": {}}
}`

const liveConfigMap = `{
  "apiVersion": "v1",
  "kind": "ConfigMap",
  "metadata": {
    "name": "settings", "namespace": "shop", "uid": "5b1c9f3e-1111-4a8e-8a3f-1a4f3b0f9c11",
    "resourceVersion": "47000", "creationTimestamp": "2026-03-01T09:00:00Z",
    "labels": {"applyset.kubernetes.io/part-of": "applyset-Hq6Ue7xLQ0AZ1Z3sQmxUoDaHAoLVnsyHr8r9GQnfjb0-v1"},
    "managedFields": [{"manager": "kubeplan", "operation": "Apply", "time": "2026-03-01T09:00:00Z"}]
  },
  "data": {"LOG_LEVEL": "info", "config.yaml": "server:\n  port: 8080\n  workers: 4\n"}
}`

// Secret values used below; none of them may appear in any output. "czNjcjN0"
// is base64 of "s3cr3t", "aHVudGVyMg==" of "hunter2", "b2xkLXRva2Vu" of
// "old-token", "bmV3LXRva2Vu" of "new-token".
var secretValues = []string{
	"hunter2", "aHVudGVyMg==", "czNjcjN0", "s3cr3t", "old-token", "b2xkLXRva2Vu",
	"new-token", "bmV3LXRva2Vu", "dXNlcg==", "opensesame", "c3RheQ==",
}

// A Secret applied with kubectl apply: the last-applied annotation keeps it
// again, with its stringData in the clear.
const liveSecret = `{
  "apiVersion": "v1",
  "kind": "Secret",
  "type": "Opaque",
  "metadata": {
    "name": "db", "namespace": "shop", "uid": "9a8b7c6d-2222-4a8e-8a3f-1a4f3b0f9c11",
    "resourceVersion": "47001", "creationTimestamp": "2026-03-01T09:00:00Z",
    "annotations": {
      "kubectl.kubernetes.io/last-applied-configuration": "{\"apiVersion\":\"v1\",\"data\":{\"password\":\"czNjcjN0\",\"user\":\"dXNlcg==\"},\"kind\":\"Secret\",\"metadata\":{\"annotations\":{},\"name\":\"db\",\"namespace\":\"shop\"},\"stringData\":{\"extra\":\"hunter2\"},\"type\":\"Opaque\"}\n"
    },
    "managedFields": [{"manager": "kubectl-client-side-apply", "operation": "Update", "time": "2026-03-01T09:00:00Z"}]
  },
  "data": {"password": "czNjcjN0", "user": "dXNlcg==", "extra": "aHVudGVyMg==", "token": "b2xkLXRva2Vu", "stay": "c3RheQ=="}
}`
