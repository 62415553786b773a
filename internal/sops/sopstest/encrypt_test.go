package sopstest_test

import (
	"bytes"
	"os"
	"reflect"
	"strings"
	"testing"

	"filippo.io/age"
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
