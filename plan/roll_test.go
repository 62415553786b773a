package plan

import (
	"encoding/base64"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kubeplan/kubeplan/internal/rollhash"
)

const rollSet = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  template:
    spec:
      imagePullSecrets: [{name: pull}]
      containers:
      - name: web
        envFrom: [{configMapRef: {name: settings}}]
        env:
        - name: PASSWORD
          valueFrom: {secretKeyRef: {name: db, key: password}}
        - name: REGION
          valueFrom: {configMapKeyRef: {name: settings, key: region}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: api, namespace: shop}
spec:
  template:
    spec:
      containers:
      - name: api
        envFrom: [{configMapRef: {name: from-the-cluster}}]
      volumes:
      - name: pull
        projected: {sources: [{secret: {name: pull}}]}
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: report, namespace: shop}
spec:
  jobTemplate:
    spec:
      template:
        spec:
          containers: [{name: r}]
          volumes: [{name: s, configMap: {name: settings}}]
---
apiVersion: v1
kind: Pod
metadata: {name: once, namespace: shop}
spec:
  containers: [{name: o, envFrom: [{configMapRef: {name: settings}}]}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: shop}
data: {region: eu}
---
apiVersion: v1
kind: Secret
metadata: {name: db, namespace: shop}
stringData: {password: hunter2}
---
apiVersion: v1
kind: Secret
metadata: {name: pull, namespace: shop}
data: {x: eA==}
`

func rollTargets(t *testing.T, docs string) []*target {
	t.Helper()
	var out []*target
	dec := yaml.NewDecoder(strings.NewReader(docs))
	for {
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			break
		}
		u := &unstructured.Unstructured{Object: m}
		gvk := u.GroupVersionKind()
		out = append(out, &target{obj: u, ref: Ref{Group: gvk.Group, Version: gvk.Version, Kind: gvk.Kind, Namespace: u.GetNamespace(), Name: u.GetName()}})
	}
	return out
}

func byName(ts []*target, kind, name string) *target {
	for _, t := range ts {
		if t.ref.Kind == kind && t.ref.Name == name {
			return t
		}
	}
	return nil
}

// Each pod template that reads a ConfigMap or Secret of the set gets a
// digest of them; templates that read none of the set's, and Pods, get
// none; a Secret read gets a key; nothing is sent anywhere.
func TestRollOnConfigChange(t *testing.T) {
	ts := rollTargets(t, rollSet)
	p := &planner{opts: Options{RollOnConfigChange: true}}
	r, err := p.rollOnConfigChange(ts, nil)
	if err != nil {
		t.Fatal(err)
	}
	web := rollhash.Get(byName(ts, "Deployment", "web").obj.Object, rollhash.TemplateMeta("apps", "Deployment"))
	report := rollhash.Get(byName(ts, "CronJob", "report").obj.Object, rollhash.TemplateMeta("batch", "CronJob"))
	if web == "" || report == "" || web == report {
		t.Errorf("digests web %q, report %q: want two different ones", web, report)
	}
	api := byName(ts, "Deployment", "api").obj.Object
	if rollhash.Get(api, rollhash.TemplateMeta("apps", "Deployment")) == "" {
		t.Error("api reads the set's Secret pull in a projected volume: no digest")
	}
	if _, ok := byName(ts, "Pod", "once").obj.Object["metadata"].(map[string]any)["annotations"]; ok {
		t.Error("a Pod got annotations: nothing rolls a Pod")
	}
	db := byName(ts, "Secret", "db")
	key := rollhash.KeyOf(db.obj.Object)
	if key == "" {
		t.Fatal("the Secret db got no key")
	}
	if got := r[byName(ts, "Deployment", "web").ref].changed; strings.Join(got, ",") != "configmap/settings,secret/db" {
		t.Errorf("web's changed references (nothing live): %v", got)
	}

	// The same set again, against what the first made live: the same
	// digests, the live key kept, nothing changed.
	live := map[*target]*unstructured.Unstructured{}
	again := rollTargets(t, rollSet)
	for i, t0 := range ts {
		live[again[i]] = t0.obj.DeepCopy()
	}
	r, err = p.rollOnConfigChange(again, live)
	if err != nil {
		t.Fatal(err)
	}
	if k := rollhash.KeyOf(byName(again, "Secret", "db").obj.Object); k != key {
		t.Errorf("the live key %q was not reused: %q", key, k)
	}
	if got := rollhash.Get(byName(again, "Deployment", "web").obj.Object, rollhash.TemplateMeta("apps", "Deployment")); got != web {
		t.Errorf("unchanged data, digest %q then %q", web, got)
	}
	for ref, ro := range r {
		if ro.digest != ro.live || len(ro.changed) > 0 {
			t.Errorf("%s: %+v after no change", ref, ro)
		}
	}

	// The password changes: web rolls for secret/db alone; report, which
	// reads only the ConfigMap, keeps its digest; pull's change (an image
	// pull secret for web) rolls api alone.
	third := rollTargets(t, strings.Replace(strings.Replace(rollSet, "hunter2", "hunter3", 1), "eA==", "eQ==", 1))
	live = map[*target]*unstructured.Unstructured{}
	for i, t0 := range again {
		live[third[i]] = t0.obj.DeepCopy()
	}
	r, err = p.rollOnConfigChange(third, live)
	if err != nil {
		t.Fatal(err)
	}
	changes := []Change{
		{Ref: byName(third, "Deployment", "web").ref, Action: Update},
		{Ref: byName(third, "Deployment", "api").ref, Action: Update},
		{Ref: byName(third, "CronJob", "report").ref, Action: Update},
	}
	r.explain(changes)
	if got := strings.Join(changes[0].RollsFor, ","); got != "secret/db" {
		t.Errorf("web rolls for %q, want secret/db", got)
	}
	if got := strings.Join(changes[1].RollsFor, ","); got != "secret/pull" {
		t.Errorf("api rolls for %q, want secret/pull", got)
	}
	if changes[2].RollsFor != nil {
		t.Errorf("report rolls for %v: its ConfigMap did not change", changes[2].RollsFor)
	}
}

// The option off: nothing is touched.
func TestRollOff(t *testing.T) {
	ts := rollTargets(t, rollSet)
	r, err := (&planner{}).rollOnConfigChange(ts, nil)
	if err != nil || r != nil {
		t.Fatalf("%v %v", r, err)
	}
	if rollhash.KeyOf(byName(ts, "Secret", "db").obj.Object) != "" || strings.Contains(Diff(nil, byName(ts, "Deployment", "web").obj.Object), "config-hash") {
		t.Error("the option off changed the objects")
	}
}

// A key given in the manifest is kept as it is.
func TestRollKeyFromManifest(t *testing.T) {
	ts := rollTargets(t, strings.Replace(rollSet, "metadata: {name: db, namespace: shop}", "metadata: {name: db, namespace: shop, annotations: {kubeplan.dev/roll-key: mine}}", 1))
	if _, err := (&planner{opts: Options{RollOnConfigChange: true}}).rollOnConfigChange(ts, nil); err != nil {
		t.Fatal(err)
	}
	if k := rollhash.KeyOf(byName(ts, "Secret", "db").obj.Object); k != "mine" {
		t.Errorf("key %q, want the manifest's", k)
	}
}

// A Secret's diff and drift never show its roll key.
func TestMaskRollKey(t *testing.T) {
	secret := func(key string) map[string]any {
		return map[string]any{"apiVersion": "v1", "kind": "Secret",
			"metadata": map[string]any{"name": "db", "annotations": map[string]any{rollhash.KeyAnnotation: key}},
			"data":     map[string]any{"password": base64.StdEncoding.EncodeToString([]byte("x"))}}
	}
	for _, tc := range []struct {
		before, after map[string]any
	}{{nil, secret("k1")}, {secret("k1"), secret("k2")}, {secret("k1"), nil}} {
		d := Diff(tc.before, tc.after)
		if strings.Contains(d, "k1") || strings.Contains(d, "k2") || !strings.Contains(d, rollhash.KeyAnnotation) {
			t.Errorf("diff shows the key or hides its name:\n%s", d)
		}
	}
	if !strings.Contains(Diff(secret("k1"), secret("k2")), MaskedAfter) {
		t.Error("a changed key is not shown as changed")
	}
	if !isRollKeyField(".metadata.annotations.kubeplan.dev/roll-key") || isRollKeyField(".metadata.annotations.owner") {
		t.Error("isRollKeyField")
	}
}
