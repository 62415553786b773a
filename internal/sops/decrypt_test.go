package sops

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"filippo.io/age"
	yaml "go.yaml.in/yaml/v3"
)

const fixtures = "../../testdata/sops"

func parseDocs(t *testing.T, data []byte) []*yaml.Node {
	t.Helper()
	var docs []*yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if err == io.EOF {
			return docs
		}
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, &n)
	}
}

func values(t *testing.T, docs []*yaml.Node) []any {
	t.Helper()
	var out []any
	for _, d := range docs {
		var v any
		if err := d.Decode(&v); err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

func fixtureKeys(t *testing.T) *Keys {
	t.Helper()
	k, err := LoadKeys(KeyOptions{Files: []string{filepath.Join(fixtures, "age-test-key.txt")}, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func readDocs(t *testing.T, name string) []*yaml.Node {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(fixtures, name))
	if err != nil {
		t.Fatal(err)
	}
	return parseDocs(t, data)
}

// Files encrypted by the real SOPS (v3.13.3) decrypt to their plaintext,
// with each setting SOPS has for choosing values, several documents, and
// typed values; the "sops" key is gone.
func TestDecryptFilesMadeBySOPS(t *testing.T) {
	keys := fixtureKeys(t)
	for _, tc := range []struct{ enc, plain string }{
		{"db-credentials.regex.enc.yaml", "db-credentials.yaml"},
		{"db-credentials.all.enc.yaml", "db-credentials.yaml"},
		{"multi.maconly.enc.yaml", "multi.yaml"},
		{"typed.suffix.enc.yaml", "typed.yaml"},
	} {
		t.Run(tc.enc, func(t *testing.T) {
			docs := readDocs(t, tc.enc)
			m := Find(docs)
			if m == nil {
				t.Fatal("not recognised as SOPS-encrypted")
			}
			if err := Decrypt(docs, m, keys); err != nil {
				t.Fatal(err)
			}
			want := values(t, readDocs(t, "plain/"+tc.plain))
			if got := values(t, docs); !reflect.DeepEqual(got, want) {
				t.Errorf("decrypted:\n%v\nwant\n%v", got, want)
			}
		})
	}
}

// Positions stay those of the encrypted file: a decrypted value is where
// its ENC[...] was.
func TestDecryptKeepsPositions(t *testing.T) {
	docs := readDocs(t, "db-credentials.regex.enc.yaml")
	if err := Decrypt(docs, Find(docs), fixtureKeys(t)); err != nil {
		t.Fatal(err)
	}
	pw := child(child(docs[0].Content[0], "stringData"), "DB_PASSWORD")
	if pw.Line != 12 || pw.Column != 18 || pw.Value != "s3cr3t-Pa55w0rd-orders" {
		t.Errorf("DB_PASSWORD at %d:%d = %q", pw.Line, pw.Column, pw.Value)
	}
}

// A key that is not a recipient opens nothing; the error names the file's
// recipient and never holds a key or a value.
func TestDecryptWrongKey(t *testing.T) {
	id, err := age.GenerateX25519Identity()
	if err != nil {
		t.Fatal(err)
	}
	keys := &Keys{Age: []age.Identity{id}, Sources: []string{"SOPS_AGE_KEY"}}
	docs := readDocs(t, "db-credentials.regex.enc.yaml")
	err = Decrypt(docs, Find(docs), keys)
	if !errors.Is(err, ErrNoKey) {
		t.Fatalf("err = %v, want ErrNoKey", err)
	}
	msg := err.Error()
	for _, want := range []string{"age1spf4z276g49zdreq2tf5eranchf2dezf0cpfa89hel2hw235pcyq77drf2", "SOPS_AGE_KEY", "17:5:"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q lacks %q", msg, want)
		}
	}
	if strings.Contains(msg, "AGE-SECRET-KEY") || strings.Contains(msg, "s3cr3t") {
		t.Errorf("error leaks a secret: %s", msg)
	}
	if err := Decrypt(readDocs(t, "db-credentials.regex.enc.yaml"), Find(readDocs(t, "db-credentials.regex.enc.yaml")), &Keys{}); !errors.Is(err, ErrNoKey) || !strings.Contains(err.Error(), "SOPS_AGE_KEY_FILE") {
		t.Errorf("no keys: %v", err)
	}
}

// Any change after encryption fails the MAC (or the value's own tag): a
// value in the clear edited by hand, two encrypted values swapped, an
// encrypted value moved to another key. With mac_only_encrypted, values in
// the clear are not covered, as in SOPS.
func TestDecryptTampered(t *testing.T) {
	keys := fixtureKeys(t)
	orig, err := os.ReadFile(filepath.Join(fixtures, "db-credentials.regex.enc.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(orig), "\n")
	swap := slicesClone(lines)
	swap[10], swap[11] = strings.Replace(lines[10], "DB_USER", "DB_PASSWORD", 1), strings.Replace(lines[11], "DB_PASSWORD", "DB_USER", 1)
	for name, text := range map[string]string{
		"clear value edited": strings.Replace(string(orig), "name: db-credentials", "name: db-credentials-2", 1),
		"values swapped":     strings.Join(swap, "\n"),
		"value added":        strings.Replace(string(orig), "type: Opaque", "type: Opaque\nimmutable: true", 1),
	} {
		docs := parseDocs(t, []byte(text))
		err := Decrypt(docs, Find(docs), keys)
		if err == nil {
			t.Errorf("%s: decrypted without error", name)
			continue
		}
		var pe *Error
		if !errors.As(err, &pe) || pe.Line == 0 {
			t.Errorf("%s: error without a position: %v", name, err)
		}
	}
	m, err := os.ReadFile(filepath.Join(fixtures, "multi.maconly.enc.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	docs := parseDocs(t, bytes.Replace(m, []byte("name: smtp"), []byte("name: smtp-relay"), 1))
	if err := Decrypt(docs, Find(docs), keys); err != nil {
		t.Errorf("mac_only_encrypted, a clear value edited: %v", err)
	}
}

func slicesClone(s []string) []string { return append([]string(nil), s...) }

// A file with a "sops" key that SOPS did not write is not encrypted.
func TestFindIgnoresOtherSopsKeys(t *testing.T) {
	docs := parseDocs(t, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\nsops:\n  team: platform\n"))
	if Find(docs) != nil {
		t.Error("a plain sops: mapping taken for SOPS metadata")
	}
	if Find(readDocs(t, "db-credentials.regex.enc.yaml")) == nil {
		t.Error("a SOPS file not recognised")
	}
}

// Which values SOPS encrypts, by the file's rules (its default is
// unencrypted_suffix _unencrypted).
func TestShouldBeEncrypted(t *testing.T) {
	parse := func(meta string) *Metadata {
		docs := parseDocs(t, []byte("a: 1\nsops:\n  mac: x\n  version: 3.13.3\n"+meta))
		return Find(docs)
	}
	for _, tc := range []struct {
		meta string
		path []string
		want bool
	}{
		{"", []string{"stringData", "password"}, true},
		{"", []string{"data", "ca_unencrypted"}, false},
		{"  encrypted_regex: ^(data|stringData)$\n", []string{"stringData", "password"}, true},
		{"  encrypted_regex: ^(data|stringData)$\n", []string{"metadata", "name"}, false},
		{"  unencrypted_regex: ^(apiVersion|kind|metadata)$\n", []string{"metadata", "name"}, false},
		{"  unencrypted_regex: ^(apiVersion|kind|metadata)$\n", []string{"data", "ca_unencrypted"}, true},
		{"  encrypted_suffix: _secret\n", []string{"data", "db_secret"}, true},
		{"  encrypted_suffix: _secret\n", []string{"data", "db"}, false},
	} {
		if got := parse(tc.meta).ShouldBeEncrypted(tc.path); got != tc.want {
			t.Errorf("%q %v: %v, want %v", tc.meta, tc.path, got, tc.want)
		}
	}
}
