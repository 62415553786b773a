package sops

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const kfixtures = fixtures + "/kustomize"

func readFixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(kfixtures, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The fixtures made by the sops CLI decrypt to the files they were made
// from (test/sopsdiff compares with sops -d itself, byte for byte).
func TestDecryptFileFormats(t *testing.T) {
	keys := fixtureKeys(t)
	cases := []struct {
		file, plain string
		format      Format
	}{
		{"base/app.enc.env", "plain/app.env", FormatDotenv},
		{"base/token.enc.bin", "plain/token.bin", FormatBinary},
		{"base/config.enc.json", "plain/config.json", FormatJSON},
		{"base/settings.enc.ini", "plain/settings.ini", FormatINI},
		{"base/values.enc.yaml", "plain/values.yaml", FormatYAML},
	}
	for _, c := range cases {
		data := readFixture(t, c.file)
		in, ok := Detect(data)
		if !ok || in != c.format {
			t.Errorf("%s: detected %v %v, want %v", c.file, in, ok, c.format)
			continue
		}
		got, err := DecryptFile(data, in, FormatForPath(c.file), keys)
		if err != nil {
			t.Errorf("%s: %v", c.file, err)
			continue
		}
		want := readFixture(t, c.plain)
		switch c.format {
		case FormatDotenv, FormatBinary:
			if !bytes.Equal(got, want) {
				t.Errorf("%s: %q, want %q", c.file, got, want)
			}
		case FormatJSON:
			var g, w any
			if json.Unmarshal(got, &g) != nil || json.Unmarshal(want, &w) != nil || !reflect.DeepEqual(g, w) {
				t.Errorf("%s: %s, want the values of %s", c.file, got, want)
			}
		case FormatINI:
			for _, l := range []string{"[database]\nuser     = orders\n; the password rotates monthly\npassword = Kx9-ini-Secret-value\n", "[cache]\nurl = redis://:cache-pass-1234@redis:6379/0\n"} {
				if !strings.Contains(string(got), l) {
					t.Errorf("%s lacks %q:\n%s", c.file, l, got)
				}
			}
		case FormatYAML:
			if !strings.Contains(string(got), "# credentials of the admin user\nusername: admin\n# rotated by hand\npassword: yaml-file-Secret-9931\n") {
				t.Errorf("%s:\n%s", c.file, got)
			}
		}
		if strings.Contains(string(got), "ENC[") || strings.Contains(string(got), "sops") {
			t.Errorf("%s: still encrypted:\n%s", c.file, got)
		}
	}
	if !Contains("Kx9-ini-Secret-value") || !Contains("sk_live_4eC39HqLyjWDarjtT1zdp7dc") || !Contains("Zq8#orders-Pa55=w0rd") {
		t.Error("decrypted values are not recorded for Scrub")
	}
}

func TestDecryptFileErrors(t *testing.T) {
	keys := fixtureKeys(t)
	env := readFixture(t, "base/app.enc.env")
	cases := []struct {
		name string
		data []byte
		in   Format
		want string
		line int
	}{
		{"no key", env, FormatDotenv, "no key was given", 6},
		{"added line", append([]byte("EXTRA_unencrypted=1\n"), env...), FormatDotenv, "MAC does not match", 10},
		{"not dotenv", []byte("sops_mac=ENC[x]\nno equals sign\n"), FormatDotenv, "not a KEY=VALUE line", 2},
		{"deep JSON", []byte(`{"mac": "ENC[", "a": ` + strings.Repeat("[", 500) + strings.Repeat("]", 500) + "}"), FormatJSON, "nested deeper", 1},
		{"JSON list", []byte(`["mac": "ENC["]`), FormatJSON, "not a SOPS-encrypted file", 0},
		{"unclosed INI quote", []byte("[a]\nk = \"\"\"open\n[sops]\nmac = ENC[x]\n"), FormatINI, "quote is not closed", 2},
	}
	for _, c := range cases {
		k := keys
		if c.name == "no key" {
			k = &Keys{}
		}
		_, err := DecryptFile(c.data, c.in, c.in, k)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
			continue
		}
		var se *Error
		if c.line > 0 && (!errors.As(err, &se) || se.Line != c.line) {
			t.Errorf("%s: %v, want line %d", c.name, err, c.line)
		}
	}
}

// The dotenv and INI formats flatten the metadata; it is read back as the
// YAML format has it.
func TestFlatMetadata(t *testing.T) {
	n := metadataFromFlat(
		[]string{"age__list_0__map_recipient", "age__list_0__map_enc", "age__list_1__map_recipient", "mac", "encrypted_regex", strings.Repeat("x__map_", 40) + "y"},
		[]string{"age1a", "-----BEGIN AGE", "age1b", "ENC[m]", "^data$", "deep"})
	m := finishMetadata(n)
	if m == nil || m.MAC != "ENC[m]" || len(m.Age) != 2 || m.Age[0].Recipient != "age1a" || m.Age[0].Enc != "-----BEGIN AGE" || m.Age[1].Recipient != "age1b" || m.EncryptedRegex == nil {
		t.Fatalf("%+v", m)
	}
}
