package kustomize_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"filippo.io/age"

	"github.com/kubeplan/kubeplan/internal/sops"
	"github.com/kubeplan/kubeplan/internal/sops/sopstest"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/manifest/loader"
)

// sopsCanary is the secret of the routes below: it must be hidden
// wherever the kustomization copies it.
const sopsCanary = "kp-canary-manifest-7f3a9c"

// writeSOPSKustomization writes a kustomization whose SOPS-encrypted
// Secret holds sopsCanary, with kustomization.yaml as given, and returns
// the keys that decrypt it.
func writeSOPSKustomization(t *testing.T, kustomization string, extra map[string]string) (string, *sops.Keys) {
	t.Helper()
	id, err := age.GenerateX25519Identity()
	if err != nil {
		t.Fatal(err)
	}
	plain := "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\nstringData:\n  password: " + sopsCanary + "\n"
	enc, err := sopstest.Encrypt([]byte(plain), id.Recipient().String(), "^(data|stringData)$")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files := map[string]string{"secret.enc.yaml": string(enc), "kustomization.yaml": kustomization}
	for k, v := range extra {
		files[k] = v
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, &sops.Keys{Age: []age.Identity{id}}
}

// Every object a kustomization derives from a decrypted value is marked
// Encrypted, whatever the route: a replacement into a ConfigMap or an
// annotation, a configMapGenerator over the encrypted file, a patch that
// turns the Secret into a ConfigMap. Objects holding nothing decrypted
// are not.
func TestKustomizeDerivedFromSOPS(t *testing.T) {
	for name, tc := range map[string]struct {
		kustomization string
		extra         map[string]string
		derived       string // kind/name of the derived object
	}{
		"replacement": {
			kustomization: `resources: [secret.enc.yaml, cm.yaml]
replacements:
- source: {kind: Secret, name: db, fieldPath: stringData.password}
  targets:
  - select: {kind: ConfigMap, name: copy}
    fieldPaths: [data.leaked, metadata.annotations.leaked]
`,
			extra:   map[string]string{"cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: copy\n  annotations: {leaked: x}\ndata: {leaked: x}\n"},
			derived: "ConfigMap/copy",
		},
		"configMapGenerator": {
			kustomization: "configMapGenerator:\n- name: gen\n  files: [secret.enc.yaml]\n",
			derived:       "ConfigMap/" + "gen",
		},
		"kind changed": {
			kustomization: `resources: [secret.enc.yaml]
patches:
- target: {kind: Secret, name: db}
  patch: |
    - op: replace
      path: /kind
      value: ConfigMap
`,
			derived: "ConfigMap/db",
		},
	} {
		t.Run(name, func(t *testing.T) {
			dir, keys := writeSOPSKustomization(t, tc.kustomization, tc.extra)
			extra := map[string]string{"plain.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: plain}\ndata: {a: b}\n"}
			for k, v := range extra {
				if err := os.WriteFile(filepath.Join(dir, k), []byte(v), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			res, err := loader.Load([]string{dir, filepath.Join(dir, "plain.yaml")}, loader.Options{Decryption: manifest.Decryption{Decrypt: true, Keys: keys}})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Problems) != 0 {
				t.Fatalf("problems: %v", res.Problems)
			}
			found := false
			for _, o := range res.Objects {
				id := o.Kind + "/" + o.Name
				if strings.HasPrefix(id, tc.derived) {
					found = true
					if !o.Encrypted {
						t.Errorf("%s holds the decrypted value but is not marked Encrypted", id)
					}
				}
				if o.Name == "plain" && o.Encrypted {
					t.Errorf("%s holds nothing decrypted but is marked Encrypted", id)
				}
			}
			if !found {
				t.Fatalf("no %s among the objects", tc.derived)
			}
		})
	}
}

// kustomize quotes a node it cannot use in its error: when that node was
// decrypted, the problem hides the value.
func TestKustomizeErrorHidesDecryptedValue(t *testing.T) {
	dir, keys := writeSOPSKustomization(t, `resources: [secret.enc.yaml]
replacements:
- source: {kind: Secret, name: db, fieldPath: stringData.password}
  targets:
  - select: {kind: Secret}
    fieldPaths: [stringData.password.deeper]
`, nil)
	res, err := loader.Load([]string{dir}, loader.Options{Decryption: manifest.Decryption{Decrypt: true, Keys: keys}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Problems) != 1 || !strings.Contains(res.Problems[0].Message, "node contents: ***") {
		t.Fatalf("problems: %v", res.Problems)
	}
	if strings.Contains(res.Problems[0].Message, sopsCanary) {
		t.Errorf("the problem shows the decrypted value: %s", res.Problems[0].Message)
	}
}

// An envs: entry over the encrypted file reads its decrypted lines as
// keys: the ConfigMap holds the value in a key, and is marked.
func TestKustomizeEnvsOverSOPS(t *testing.T) {
	dir, keys := writeSOPSKustomization(t, "configMapGenerator:\n- name: gen\n  envs: [secret.enc.yaml]\n", nil)
	res, err := loader.Load([]string{dir}, loader.Options{Decryption: manifest.Decryption{Decrypt: true, Keys: keys}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Objects) != 1 || !res.Objects[0].Encrypted {
		t.Fatalf("objects: %v", res.Objects)
	}
}
