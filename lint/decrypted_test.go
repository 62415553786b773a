package lint

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

// A finding that quotes a value decrypted from SOPS (here the keys an
// envs: generator made of the decrypted file's lines) hides it.
func TestFindingsHideDecryptedValues(t *testing.T) {
	const canary = "kp-canary-lint-2c7f90"
	id, err := age.GenerateX25519Identity()
	if err != nil {
		t.Fatal(err)
	}
	enc, err := sopstest.Encrypt([]byte("apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\nstringData:\n  password: "+canary+"\n"), id.Recipient().String(), "^(data|stringData)$")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, body := range map[string]string{"secret.enc.yaml": string(enc), "kustomization.yaml": "configMapGenerator:\n- name: gen\n  envs: [secret.enc.yaml]\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	in := Input{Paths: []string{dir}, KeepObjects: true,
		Load: loader.Options{Decryption: manifest.Decryption{Decrypt: true, Keys: &sops.Keys{Age: []age.Identity{id}}}}}
	rep, _, err := Check(in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range rep.Findings {
		// the decrypted file as sops -d prints it: "password: VALUE"
		if strings.Contains(f.Message, "password: ***") {
			found = true
		}
		if strings.Contains(f.Message+f.Object+f.Field, canary) {
			t.Errorf("a finding shows the decrypted value: %+v", f)
		}
	}
	if !found {
		t.Errorf("no finding about the key that held the value: %+v", rep.Findings)
	}
}
