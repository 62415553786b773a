package plan

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"filippo.io/age"
	yaml "go.yaml.in/yaml/v3"

	"github.com/kubeplan/kubeplan/internal/sops"
	"github.com/kubeplan/kubeplan/internal/sops/sopstest"
)

// revealCanary decrypts a SOPS file holding value, as loading a SOPS file
// for plan does: from then on, value is a decrypted value.
func revealCanary(t *testing.T, value string) {
	t.Helper()
	id, err := age.GenerateX25519Identity()
	if err != nil {
		t.Fatal(err)
	}
	enc, err := sopstest.Encrypt([]byte("apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData:\n  k: "+value+"\n"), id.Recipient().String(), "^(data|stringData)$")
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(enc)).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	docs := []*yaml.Node{&doc}
	if err := sops.Decrypt(docs, sops.Find(docs), &sops.Keys{Age: []age.Identity{id}}); err != nil {
		t.Fatal(err)
	}
}

// A value decrypted from SOPS is hidden in every change of any kind (the
// diff, drift, reason, warnings), the change holding it is marked
// Decrypted, its object keeps the value for apply, and Save refuses it.
func TestHideDecrypted(t *testing.T) {
	const canary = "kp-canary-plan-41c9e2"
	revealCanary(t, canary)
	cm := map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "copy", "annotations": map[string]any{"leaked": canary}}, "data": map[string]any{"leaked": canary}}
	p := &Plan{Version: FormatVersion, Changes: []Change{{
		Ref:    Ref{Version: "v1", Kind: "ConfigMap", Name: "copy"},
		Source: Source{File: "app/cm.yaml"},
		Action: Update,
		Diff:   "+data:\n+  leaked: " + canary + "\n", // as Diff wrote it before it hid decrypted values
		Drift:  []Drift{{Field: "data.leaked", Live: "old", Want: canary, Manager: "kubectl"}},
		Reason: "because " + canary,
		Object: cm,
	}, {
		Ref: Ref{Version: "v1", Kind: "ConfigMap", Name: "plain"}, Source: Source{File: "app/plain.yaml"}, Action: Create,
		Diff: "+data:\n+  a: b\n", Object: map[string]any{"data": map[string]any{"a": "b"}},
	}}, Warnings: []Warning{{Ref: Ref{Kind: "Pod", Name: "p"}, Message: "needs \"" + canary + "\""}}}
	if !strings.Contains(p.Changes[0].Diff, canary) {
		t.Fatal("the test's diff does not hold the canary")
	}
	if err := hideDecrypted(p); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, c := range p.Changes {
		b.WriteString(c.Diff + c.Reason)
		for _, d := range c.Drift {
			b.WriteString(d.Live + d.Want)
		}
	}
	for _, w := range p.Warnings {
		b.WriteString(w.Message)
	}
	if strings.Contains(b.String(), canary) {
		t.Errorf("the plan still shows the decrypted value:\n%s", b.String())
	}
	if p.Changes[0].Diff != "+data:\n+  leaked: ***\n" {
		t.Errorf("diff:\n%s", p.Changes[0].Diff)
	}
	if !p.Changes[0].Decrypted || p.Changes[1].Decrypted {
		t.Errorf("Decrypted: %v %v, want true false", p.Changes[0].Decrypted, p.Changes[1].Decrypted)
	}
	if p.Changes[0].Object["data"].(map[string]any)["leaked"] != canary {
		t.Error("the object lost its value: apply would send the mask")
	}
	if p.Changes[1].Diff != "+data:\n+  a: b\n" {
		t.Errorf("a change holding nothing decrypted changed: %q", p.Changes[1].Diff)
	}
	path := filepath.Join(t.TempDir(), "tfplan")
	if err := Save(path, p); err == nil || !strings.Contains(err.Error(), "app/cm.yaml") || strings.Contains(err.Error(), canary) {
		t.Errorf("Save: %v", err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Error("Save wrote a file")
	}
}

// A decrypted value in an object's name is an error that names the file,
// not the value.
func TestHideDecryptedName(t *testing.T) {
	const canary = "kp-canary-name-0b7d"
	revealCanary(t, canary)
	p := &Plan{Changes: []Change{{Ref: Ref{Version: "v1", Kind: "ConfigMap", Name: "x-" + canary}, Source: Source{File: "app/k.yaml"}}}}
	err := hideDecrypted(p)
	if err == nil || !strings.Contains(err.Error(), "app/k.yaml") || strings.Contains(err.Error(), canary) {
		t.Errorf("err = %v", err)
	}
}

// In a diff of any kind of object, a decrypted value is hidden before the
// YAML is rendered, so a long one YAML folds over two lines is hidden too;
// a rotated one (both values decrypted) still shows as a change.
func TestDiffHidesDecryptedValues(t *testing.T) {
	const long = "correct horse battery staple kp-canary-fold and a passphrase that goes on beyond eighty characters"
	const old, rotated = "kp-canary-rotated-old", "kp-canary-rotated-new"
	revealCanary(t, long)
	revealCanary(t, old)
	revealCanary(t, rotated)
	cm := func(v, ann string) map[string]any {
		return map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "c", "annotations": map[string]any{"a": ann}}, "data": map[string]any{"long": long, "rotated": v, long: "as a key"}}
	}
	d := Diff(nil, cm(rotated, long))
	for _, part := range []string{"kp-canary", "passphrase", "eighty"} {
		if strings.Contains(d, part) {
			t.Errorf("the diff shows %q:\n%s", part, d)
		}
	}
	d = Diff(cm(old, "x"), cm(rotated, "x"))
	if Equal(cm(old, "x"), cm(rotated, "x")) || !strings.Contains(d, "-  rotated: '*** (before)'") || !strings.Contains(d, "+  rotated: '*** (after)'") {
		t.Errorf("a rotated value is not a change:\n%s", d)
	}
	if !Equal(cm(rotated, "x"), cm(rotated, "x")) || Diff(cm(rotated, "x"), cm(rotated, "x")) != "" {
		t.Error("equal objects differ")
	}
}
