package sopstest_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"filippo.io/age"
	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/armor"
	yaml "go.yaml.in/yaml/v3"

	"github.com/kubeplan/kubeplan/internal/sops"
	"github.com/kubeplan/kubeplan/internal/sops/sopstest"
)

func docs(t *testing.T, data []byte) []*yaml.Node {
	t.Helper()
	var out []*yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var n yaml.Node
		if err := dec.Decode(&n); err != nil {
			return out
		}
		out = append(out, &n)
	}
}

// What the test encryptor writes, the decrypter opens with a key made in
// the test, for every value type; the plaintext is not in the file.
func TestEncryptRoundTrip(t *testing.T) {
	id, err := age.GenerateX25519Identity()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ file, regex string }{
		{"../../../testdata/sops/plain/db-credentials.yaml", "^(data|stringData)$"},
		{"../../../testdata/sops/plain/multi.yaml", "^(data|stringData)$"},
		{"../../../testdata/sops/plain/typed.yaml", ""},
	} {
		plain, err := os.ReadFile(tc.file)
		if err != nil {
			t.Fatal(err)
		}
		enc, err := sopstest.Encrypt(plain, id.Recipient().String(), tc.regex)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(enc, []byte("s3cr3t")) || bytes.Contains(enc, []byte("hunter2")) {
			t.Fatalf("%s: plaintext in the encrypted file", tc.file)
		}
		d := docs(t, enc)
		m := sops.Find(d)
		if m == nil {
			t.Fatalf("%s: not recognised", tc.file)
		}
		if err := sops.Decrypt(d, m, &sops.Keys{Age: []age.Identity{id}}); err != nil {
			t.Fatalf("%s: %v\n%s", tc.file, err, enc)
		}
		var got, want []any
		for _, n := range d {
			var v any
			_ = n.Decode(&v)
			got = append(got, v)
		}
		for _, n := range docs(t, plain) {
			var v any
			_ = n.Decode(&v)
			want = append(want, v)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: round trip\n%v\nwant\n%v", tc.file, got, want)
		}
		if !strings.Contains(string(enc), "ENC[AES256_GCM,") {
			t.Errorf("%s: nothing encrypted", tc.file)
		}
	}
}

// A file encrypted for a PGP key decrypts with its armored private key
// given as a key file, as --decryption-key-file reads it.
func TestEncryptPGP(t *testing.T) {
	ent, err := openpgp.NewEntity("kubeplan test", "", "test@example.com", nil)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := os.ReadFile("../../../testdata/sops/plain/db-credentials.yaml")
	if err != nil {
		t.Fatal(err)
	}
	enc, err := sopstest.EncryptFor(plain, sopstest.Recipients{PGP: ent}, "^(data|stringData)$")
	if err != nil {
		t.Fatal(err)
	}
	var priv bytes.Buffer
	w, err := armor.Encode(&priv, openpgp.PrivateKeyType, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := ent.SerializePrivate(w, nil); err != nil {
		t.Fatal(err)
	}
	w.Close()
	keyFile := filepath.Join(t.TempDir(), "key.asc")
	if err := os.WriteFile(keyFile, priv.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	keys, err := sops.LoadKeys(sops.KeyOptions{Files: []string{keyFile}, Getenv: func(string) string { return "" }})
	if err != nil || len(keys.PGP) != 1 {
		t.Fatalf("keys %v, %v", keys, err)
	}
	d := docs(t, enc)
	if err := sops.Decrypt(d, sops.Find(d), keys); err != nil {
		t.Fatalf("%v\n%s", err, enc)
	}
	var v map[string]any
	d[0].Decode(&v)
	if v["stringData"].(map[string]any)["DB_PASSWORD"] != "s3cr3t-Pa55w0rd-orders" {
		t.Errorf("decrypted %v", v["stringData"])
	}
	// Another PGP key: no key fits, the error names the fingerprint.
	other, _ := openpgp.NewEntity("other", "", "other@example.com", nil)
	d = docs(t, enc)
	err = sops.Decrypt(d, sops.Find(d), &sops.Keys{PGP: openpgp.EntityList{other}, Sources: []string{"other.asc"}})
	if !errors.Is(err, sops.ErrNoKey) || !strings.Contains(err.Error(), fmt.Sprintf("pgp %X", ent.PrimaryKey.Fingerprint)) {
		t.Errorf("wrong PGP key: %v", err)
	}
}
