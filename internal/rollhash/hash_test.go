package rollhash

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

func obj(t *testing.T, doc string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := yaml.Unmarshal([]byte(doc), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// A ConfigMap's digest follows its data and nothing else; the order of
// the keys does not matter, and no two maps that differ agree.
func TestConfigMap(t *testing.T) {
	a := ConfigMap(obj(t, "metadata: {name: s, labels: {x: y}}\ndata: {currency: EUR, region: eu}"))
	if b := ConfigMap(obj(t, "metadata: {name: other}\ndata: {region: eu, currency: EUR}")); a != b {
		t.Errorf("same data, other metadata and order: %s != %s", a, b)
	}
	for _, doc := range []string{
		"data: {currency: USD, region: eu}",
		"data: {currency: EUR}",
		"data: {currency: EUR, region: eu, extra: ''}",
		"data: {currencyr: egion}",
		"binaryData: {currency: EUR, region: eu}",
	} {
		if b := ConfigMap(obj(t, doc)); a == b {
			t.Errorf("%s: digest unchanged", doc)
		}
	}
}

// A Secret's digest is an HMAC: it is not the SHA-256 of its value, it
// depends on the key, and stringData agrees with the data it becomes.
func TestSecret(t *testing.T) {
	s := obj(t, "data: {password: "+base64.StdEncoding.EncodeToString([]byte("hunter2"))+"}")
	key, err := NewKey()
	if err != nil {
		t.Fatal(err)
	}
	d := Secret(key, s)
	for _, plain := range []string{"hunter2", "password", "passwordhunter2"} {
		sum := sha256.Sum256([]byte(plain))
		if d == hex.EncodeToString(sum[:]) {
			t.Errorf("the digest is sha256(%q)", plain)
		}
	}
	h := sha256.New()
	writeValues(h, secretValues(s))
	if d == hex.EncodeToString(h.Sum(nil)) {
		t.Error("the digest is the unkeyed SHA-256 of the values")
	}
	other, _ := NewKey()
	if other == key || len(key) != 43 {
		t.Fatalf("keys %q and %q: want two different 256-bit keys", key, other)
	}
	if Secret(other, s) == d {
		t.Error("the digest does not depend on the key")
	}
	if got := Secret(key, obj(t, "stringData: {password: hunter2}")); got != d {
		t.Error("stringData and the data it becomes differ")
	}
	if got := Secret(key, obj(t, "data: {password: aGVsbG8=}\nstringData: {password: hunter2}")); got != d {
		t.Error("stringData does not win over data, as on the server")
	}
	if got := Secret(key, obj(t, "data: {password: "+base64.StdEncoding.EncodeToString([]byte("hunter3"))+"}")); got == d {
		t.Error("a changed value keeps the digest")
	}
}

func TestTemplate(t *testing.T) {
	a := Template([]Ref{{"configmap/a", "1"}, {"secret/b", "2"}})
	if b := Template([]Ref{{"secret/b", "2"}, {"configmap/a", "1"}}); a != b {
		t.Error("the order of the references changes the digest")
	}
	if b := Template([]Ref{{"configmap/a", "1"}, {"secret/b", "3"}}); a == b {
		t.Error("a changed reference keeps the digest")
	}
	if b := Template([]Ref{{"configmap/a1", ""}, {"secret/b", "2"}}); a == b {
		t.Error("name and digest run together")
	}
}

func TestTemplateMeta(t *testing.T) {
	for _, tc := range []struct{ group, kind, want string }{
		{"apps", "Deployment", "spec.template.metadata"},
		{"apps", "StatefulSet", "spec.template.metadata"},
		{"apps", "DaemonSet", "spec.template.metadata"},
		{"batch", "Job", "spec.template.metadata"},
		{"batch", "CronJob", "spec.jobTemplate.spec.template.metadata"},
		{"", "Pod", ""},
		{"", "ConfigMap", ""},
	} {
		if got := strings.Join(TemplateMeta(tc.group, tc.kind), "."); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.kind, got, tc.want)
		}
	}
}

func TestSetGet(t *testing.T) {
	o := obj(t, "spec: {jobTemplate: {spec: {template: {spec: {containers: []}}}}}")
	meta := TemplateMeta("batch", "CronJob")
	if Get(o, meta) != "" {
		t.Fatal("a digest before Set")
	}
	Set(o, meta, "abc")
	if Get(o, meta) != "abc" {
		t.Fatalf("Set then Get: %v", o)
	}
	o = obj(t, "spec: {template: {metadata: {annotations: {keep: me}}}}")
	Set(o, TemplateMeta("apps", "Deployment"), "d")
	ann := o["spec"].(map[string]any)["template"].(map[string]any)["metadata"].(map[string]any)["annotations"].(map[string]any)
	if ann["keep"] != "me" || ann[Annotation] != "d" {
		t.Errorf("annotations %v", ann)
	}
}
