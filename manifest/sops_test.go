package manifest_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"filippo.io/age"

	"github.com/kubeplan/kubeplan/internal/sops"
	"github.com/kubeplan/kubeplan/internal/sops/sopstest"
	"github.com/kubeplan/kubeplan/internal/testing/filetree"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/manifest/loader"
)

func sopsFixtureKeys(t *testing.T) *sops.Keys {
	t.Helper()
	k, err := sops.LoadKeys(sops.KeyOptions{Files: []string{"../testdata/sops/age-test-key.txt"}, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// As in git (lint): a SOPS file is one object per document, marked
// Encrypted, without the sops metadata, its ENC values opaque strings of
// their type.
func TestSOPSAsInGit(t *testing.T) {
	res, err := loader.Load([]string{"../testdata/sops/db-credentials.regex.enc.yaml", "../testdata/sops/typed.suffix.enc.yaml", "../testdata/sops/multi.maconly.enc.yaml"}, loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// typed.suffix.enc.yaml encrypts its apiVersion and kind (SOPS's
	// default): one warning at the apiVersion, no object.
	if len(res.Problems) != 1 || res.Problems[0].Rule != manifest.RuleSOPSIdentity || !res.Problems[0].Warning || res.Problems[0].Line != 1 || res.Problems[0].Col != 13 {
		t.Fatalf("problems: %v", res.Problems)
	}
	if len(res.Objects) != 3 {
		t.Fatalf("%d objects", len(res.Objects))
	}
	for _, o := range res.Objects {
		if !o.Encrypted {
			t.Errorf("%s/%s not marked Encrypted", o.Kind, o.Name)
		}
		if _, ok := o.Content["sops"]; ok {
			t.Errorf("%s/%s keeps the sops metadata", o.Kind, o.Name)
		}
	}
	db := res.Objects[0]
	if pw, _ := db.Content["stringData"].(map[string]any)["DB_PASSWORD"].(string); !strings.HasPrefix(pw, "ENC[AES256_GCM,") {
		t.Errorf("DB_PASSWORD = %q, want the encrypted value", pw)
	}
	if p := db.Pos("stringData", "DB_PASSWORD"); p != (manifest.Pos{Line: 12, Col: 18}) {
		t.Errorf("DB_PASSWORD at %v", p)
	}
	// Encrypted non-string values read as values of their type.
	data, err := os.ReadFile("../testdata/sops/typed.suffix.enc.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, l := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(l, "apiVersion:") && !strings.HasPrefix(l, "kind:") && !strings.HasPrefix(l, "metadata:") && !strings.HasPrefix(l, "    name:") {
			kept = append(kept, l)
		}
	}
	text := "apiVersion: example.com/v1\nkind: Flags\nmetadata:\n    name: flags\n" + strings.Join(kept, "\n")
	objs, probs := manifest.ParseFile("typed.enc.yaml", []byte(text), manifest.Decryption{})
	if len(objs) != 1 || len(probs) != 0 {
		t.Fatalf("typed: objects %d, problems %v", len(objs), probs)
	}
	typed := objs[0]
	if v := typed.Content["replicas"]; v != int64(0) && v != 0 {
		t.Errorf("an encrypted int reads as %#v, want an int", v)
	}
	if v := typed.Content["enabled"]; v != false {
		t.Errorf("an encrypted bool reads as %#v, want a bool", v)
	}
}

// Decrypted (plan, apply): the plaintext, at the encrypted file's
// positions; a wrong key or a tampered file is one problem and no object.
func TestSOPSDecrypted(t *testing.T) {
	dec := manifest.Decryption{Decrypt: true, Keys: sopsFixtureKeys(t)}
	res, err := loader.Load([]string{"../testdata/sops/db-credentials.all.enc.yaml"}, loader.Options{Decryption: dec})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Problems) > 0 || len(res.Objects) != 1 {
		t.Fatalf("objects %d, problems %v", len(res.Objects), res.Problems)
	}
	o := res.Objects[0]
	if o.Kind != "Secret" || o.Name != "db-credentials" || o.Namespace != "shop" || !o.Encrypted {
		t.Errorf("object %s %s/%s encrypted=%v", o.Kind, o.Namespace, o.Name, o.Encrypted)
	}
	if pw := o.Content["stringData"].(map[string]any)["DB_PASSWORD"]; pw != "s3cr3t-Pa55w0rd-orders" {
		t.Errorf("DB_PASSWORD decrypted to %q", pw)
	}

	id, _ := age.GenerateX25519Identity()
	wrong := manifest.Decryption{Decrypt: true, Keys: &sops.Keys{Age: []age.Identity{id}, Sources: []string{"test"}}}
	res, err = loader.Load([]string{"../testdata/sops/db-credentials.regex.enc.yaml"}, loader.Options{Decryption: wrong})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Objects) != 0 || len(res.Problems) != 1 || res.Problems[0].Rule != manifest.RuleSOPSDecrypt {
		t.Fatalf("wrong key: objects %d, problems %v", len(res.Objects), res.Problems)
	}
	p := res.Problems[0]
	if p.Line != 17 || !strings.Contains(p.Message, "age1spf4z276g49zdreq2tf5eranchf2dezf0cpfa89hel2hw235pcyq77drf2") {
		t.Errorf("wrong key problem: %d:%d %s", p.Line, p.Col, p.Message)
	}
}

// A value added in the clear after encryption is a problem at its line,
// in lint, that never quotes the value.
func TestSOPSUnencryptedValue(t *testing.T) {
	data, err := os.ReadFile("../testdata/sops/db-credentials.regex.enc.yaml")
	if err != nil {
		t.Fatal(err)
	}
	data = []byte(strings.Replace(string(data), "stringData:\n", "stringData:\n    API_TOKEN: plain-token-value\n", 1))
	objs, probs := manifest.ParseFile("secret.enc.yaml", data, manifest.Decryption{})
	if len(objs) != 1 || len(probs) != 1 {
		t.Fatalf("objects %d, problems %v", len(objs), probs)
	}
	if p := probs[0]; p.Rule != manifest.RuleSOPSUnencrypted || p.Line != 11 || p.Col != 16 || !strings.Contains(p.Message, "stringData.API_TOKEN") || strings.Contains(p.Message, "plain-token-value") {
		t.Errorf("problem %d:%d %s %s", p.Line, p.Col, p.Rule, p.Message)
	}
}

// A kustomize overlay with an encrypted Secret in its base and an
// encrypted patch, as Flux users keep them: decrypted as kustomize reads
// them, with a key made in the test.
func TestSOPSKustomizeOverlay(t *testing.T) {
	id, err := age.GenerateX25519Identity()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	enc := func(plain string) string {
		out, err := sopstest.Encrypt([]byte(plain), id.Recipient().String(), "^(data|stringData)$")
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	filetree.Write(t, dir, map[string]string{
		"base/kustomization.yaml":               "resources:\n  - deployment.yaml\n  - db-credentials.enc.yaml\n",
		"base/deployment.yaml":                  "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: orders\nspec:\n  selector:\n    matchLabels: {app: orders}\n  template:\n    metadata:\n      labels: {app: orders}\n    spec:\n      containers:\n        - name: orders\n          image: ghcr.io/example/orders:1.4.2\n          envFrom:\n            - secretRef: {name: db-credentials}\n",
		"base/db-credentials.enc.yaml":          enc("apiVersion: v1\nkind: Secret\nmetadata:\n  name: db-credentials\ntype: Opaque\nstringData:\n  DB_USER: orders\n  DB_PASSWORD: base-password\n"),
		"overlays/prod/kustomization.yaml":      "namespace: shop-prod\nresources:\n  - ../../base\npatches:\n  - path: db-credentials.enc.yaml\n",
		"overlays/prod/db-credentials.enc.yaml": enc("apiVersion: v1\nkind: Secret\nmetadata:\n  name: db-credentials\nstringData:\n  DB_PASSWORD: prod-password\n"),
	})
	res, err := loader.Load([]string{filepath.Join(dir, "overlays/prod")}, loader.Options{Root: dir, Decryption: manifest.Decryption{Decrypt: true, Keys: &sops.Keys{Age: []age.Identity{id}}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Problems) > 0 {
		t.Fatalf("problems: %v", res.Problems)
	}
	var secret *manifest.Object
	for _, o := range res.Objects {
		if o.Kind == "Secret" {
			secret = o
		}
	}
	if secret == nil || !secret.Encrypted || secret.Namespace != "shop-prod" {
		t.Fatalf("secret %+v", secret)
	}
	sd := secret.Content["stringData"].(map[string]any)
	if sd["DB_PASSWORD"] != "prod-password" || sd["DB_USER"] != "orders" {
		t.Errorf("stringData %v", sd)
	}
	// As in git (lint): the same overlay builds, with opaque values.
	res, err = loader.Load([]string{filepath.Join(dir, "overlays/prod")}, loader.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range res.Objects {
		if o.Kind == "Secret" && (!o.Encrypted || strings.Contains(o.Content["stringData"].(map[string]any)["DB_PASSWORD"].(string), "password")) {
			t.Errorf("lint build of the overlay: %v", o.Content)
		}
	}
}
