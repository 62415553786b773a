package manifest_test

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/sops"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/manifest/loader"
)

// fluxFixture is a kustomization with every kind of SOPS input Flux
// decrypts (testdata/sops/README.md), made with the sops CLI.
const fluxFixture = "../testdata/sops/kustomize/base"

func fluxKeys(t *testing.T) *sops.Keys {
	t.Helper()
	k, err := sops.LoadKeys(sops.KeyOptions{Files: []string{"../testdata/sops/age-test-key.txt"}, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// byName indexes objects by kind/name.
func byName(objs []*manifest.Object) map[string]*manifest.Object {
	m := map[string]*manifest.Object{}
	for _, o := range objs {
		m[o.Kind+"/"+o.Name] = o
	}
	return m
}

// decodedData is a Secret's data decoded, or a ConfigMap's data.
func decodedData(t *testing.T, o *manifest.Object) map[string]string {
	t.Helper()
	out := map[string]string{}
	data, _ := o.Content["data"].(map[string]any)
	for k, v := range data {
		s, _ := v.(string)
		if o.Kind == "Secret" {
			b, err := base64.StdEncoding.DecodeString(s)
			if err != nil {
				t.Fatalf("%s data.%s: %v", o.Name, k, err)
			}
			s = string(b)
		}
		out[k] = s
	}
	if sd, ok := o.Content["stringData"].(map[string]any); ok {
		for k, v := range sd {
			out[k], _ = v.(string)
		}
	}
	return out
}

func TestSOPSFluxInputsDecrypted(t *testing.T) {
	res, err := loader.Load([]string{fluxFixture}, loader.Options{Decryption: manifest.Decryption{Decrypt: true, Keys: fluxKeys(t)}})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range res.Problems {
		t.Errorf("problem: %s [%s]", p.Error(), p.Rule)
	}
	objs := byName(res.Objects)
	plain := func(name string) string {
		b, err := os.ReadFile(filepath.Join("../testdata/sops/kustomize/plain", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	want := map[string]map[string]string{
		"Secret/app-env":          {"DB_USER": "orders", "DB_PASSWORD": "Zq8#orders-Pa55=w0rd", "MULTI": `line one\nline two` /* kustomize reads the dotenv sops -d prints, as under Flux */, "EMPTY": "", "PATCHED_TOKEN": "patched-Secret-value-771"},
		"Secret/component-secret": {"api-token": "component-Token-5521", "port": "9090"},
		"Secret/app-files":        {"token.bin": plain("token.bin")},
		"Secret/documents":        {"token": plain("token.bin"), "from-component": "component-patch-Value-8812"},
	}
	for name, kv := range want {
		o := objs[name]
		if o == nil {
			t.Fatalf("no %s among %v", name, keysOf(objs))
		}
		got := decodedData(t, o)
		for k, v := range kv {
			if got[k] != v {
				t.Errorf("%s %s = %q, want %q", name, k, got[k], v)
			}
		}
		if !o.Encrypted {
			t.Errorf("%s is not marked Encrypted", name)
		}
	}
	// the structured files: the same values as the plain files (the
	// differential suite, test/sopsdiff, compares the bytes with sops -d)
	files := decodedData(t, objs["Secret/app-files"])
	for _, k := range []string{"app.env", "config.json", "settings.ini", "values.yaml"} {
		if strings.Contains(files[k], "ENC[") || strings.Contains(files[k], "sops") {
			t.Errorf("app-files %s still encrypted:\n%s", k, files[k])
		}
	}
	for _, s := range []string{"Zq8#orders-Pa55=w0rd", "Kx9-ini-Secret-value", "sk_live_4eC39HqLyjWDarjtT1zdp7dc", "yaml-file-Secret-9931"} {
		if !strings.Contains(strings.Join(mapValues(files), "\n"), s) {
			t.Errorf("app-files lacks %q", s)
		}
	}
	if cm := decodedData(t, objs["ConfigMap/app-config"]); !strings.Contains(cm["config.json"], "sk_live_4eC39HqLyjWDarjtT1zdp7dc") {
		t.Errorf("configMapGenerator input not decrypted: %q", cm["config.json"])
	}
	for _, o := range res.Objects {
		if path, found := manifest.Ciphertext(o); found != "" {
			t.Errorf("%s/%s still holds %s at %v", o.Kind, o.Name, found, path)
		}
	}
}

func keysOf[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func mapValues(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// copyFlux copies the fixture tree (base, component) to a temporary
// directory and returns its base.
func copyFlux(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, sub := range []string{"base", "component"} {
		src := filepath.Join("../testdata/sops/kustomize", sub)
		entries, err := os.ReadDir(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			b, err := os.ReadFile(filepath.Join(src, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, sub, e.Name()), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return filepath.Join(dir, "base")
}

// tamper removes the first line of file holding drop.
func tamper(t *testing.T, file, drop string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	for i, l := range lines {
		if strings.Contains(l, drop) {
			lines = append(lines[:i], lines[i+1:]...)
			if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
	}
	t.Fatalf("%s has no line with %q", file, drop)
}

func TestSOPSFluxInputsLint(t *testing.T) {
	res, err := loader.Load([]string{fluxFixture}, loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range res.Problems {
		if !p.Warning && !p.Info {
			t.Errorf("lint without a key: %s [%s]", p.Error(), p.Rule)
		}
	}
	objs := byName(res.Objects)
	for _, name := range []string{"Secret/app-env", "Secret/app-files", "Secret/documents", "Secret/component-secret", "ConfigMap/app-config"} {
		if o := objs[name]; o == nil || !o.Encrypted {
			t.Errorf("%s: missing or not Encrypted in lint (%v)", name, o != nil)
		}
	}
	// with the key at hand, lint verifies and finds nothing wrong
	res, err = loader.Load([]string{fluxFixture}, loader.Options{Decryption: manifest.Decryption{Keys: fluxKeys(t)}})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range res.Problems {
		if !p.Warning && !p.Info {
			t.Errorf("lint with the key: %s [%s]", p.Error(), p.Rule)
		}
	}
}

func TestSOPSFluxNoKey(t *testing.T) {
	res, err := loader.Load([]string{fluxFixture}, loader.Options{Decryption: manifest.Decryption{Decrypt: true, Keys: &sops.Keys{}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Objects) != 0 {
		t.Errorf("%d objects built without the key; want none", len(res.Objects))
	}
	var seen []string
	for _, p := range res.Problems {
		if p.Rule != manifest.RuleSOPSDecrypt {
			t.Errorf("problem %s [%s], want only %s", p.Error(), p.Rule, manifest.RuleSOPSDecrypt)
			continue
		}
		if !strings.Contains(p.Message, "no key was given") {
			t.Errorf("%s: does not say no key was given", p.Error())
		}
		seen = append(seen, filepath.Base(p.File))
	}
	if len(seen) == 0 {
		t.Fatal("no sops-decrypt problem without a key")
	}
}

func TestSOPSFluxTamperedMAC(t *testing.T) {
	cases := []struct{ file, drop, at string }{
		{"app.enc.env", "DB_USER=", "app.enc.env"},
		{"config.enc.json", `"ratio"`, "config.enc.json"},
		{"settings.enc.ini", "host ", "settings.enc.ini"},
		{"values.enc.yaml", "flag:", "values.enc.yaml"},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			base := copyFlux(t)
			tamper(t, filepath.Join(base, c.file), c.drop)
			for _, dec := range []manifest.Decryption{{Decrypt: true, Keys: fluxKeys(t)}, {Keys: fluxKeys(t)}} {
				res, err := loader.Load([]string{base}, loader.Options{Decryption: dec, Root: filepath.Dir(base)})
				if err != nil {
					t.Fatal(err)
				}
				found := false
				for _, p := range res.Problems {
					if p.Rule == manifest.RuleSOPSDecrypt && filepath.Base(p.File) == c.at && strings.Contains(p.Message, "MAC does not match") && p.Line > 1 {
						found = true
					}
				}
				if !found {
					t.Errorf("decrypt=%v: no sops-decrypt MAC problem at %s:line; got %v", dec.Decrypt, c.at, res.Problems)
				}
				if dec.Decrypt && len(res.Objects) != 0 {
					t.Errorf("%d objects built from a tampered file", len(res.Objects))
				}
			}
		})
	}
}

// secretWithDocument writes a plain Secret whose data.app.env is the
// base64 of the dotenv fixture, tampered when drop is not "".
func secretWithDocument(t *testing.T, drop string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fluxFixture, "app.enc.env"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	if drop != "" {
		var kept []string
		for _, l := range strings.Split(doc, "\n") {
			if !strings.Contains(l, drop) {
				kept = append(kept, l)
			}
		}
		doc = strings.Join(kept, "\n")
	}
	file := filepath.Join(t.TempDir(), "secret.yaml")
	y := "apiVersion: v1\nkind: Secret\nmetadata:\n  name: doc\ndata:\n  other: b3RoZXI=\n  app.env: " + base64.StdEncoding.EncodeToString([]byte(doc)) + "\n"
	if err := os.WriteFile(file, []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

func TestSOPSSecretDocument(t *testing.T) {
	file := secretWithDocument(t, "")
	res, err := loader.Load([]string{file}, loader.Options{Decryption: manifest.Decryption{Decrypt: true, Keys: fluxKeys(t)}})
	if err != nil || len(res.Problems) > 0 || len(res.Objects) != 1 {
		t.Fatalf("%v %v %d", err, res.Problems, len(res.Objects))
	}
	got := decodedData(t, res.Objects[0])
	if !strings.Contains(got["app.env"], "DB_PASSWORD=Zq8#orders-Pa55=w0rd\n") || strings.Contains(got["app.env"], "sops_") || got["other"] != "other" {
		t.Errorf("data not decrypted as dotenv: %q", got)
	}
	// lint: no problem without key; not Encrypted, for "other" is in
	// the clear in git (plaintext-secret says so); Encrypted without it
	res, _ = loader.Load([]string{file}, loader.Options{})
	if len(res.Problems) > 0 || len(res.Objects) != 1 || res.Objects[0].Encrypted {
		t.Errorf("lint: %v, %d objects", res.Problems, len(res.Objects))
	}
	only := filepath.Join(t.TempDir(), "only.yaml")
	b, _ := os.ReadFile(file)
	if err := os.WriteFile(only, []byte(strings.Replace(string(b), "  other: b3RoZXI=\n", "", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	res, _ = loader.Load([]string{only}, loader.Options{})
	if len(res.Problems) > 0 || len(res.Objects) != 1 || !res.Objects[0].Encrypted {
		t.Errorf("lint of a Secret holding only a SOPS document: %v, encrypted=%v", res.Problems, len(res.Objects) == 1 && res.Objects[0].Encrypted)
	}

	tampered := secretWithDocument(t, "DB_USER=")
	for _, dec := range []manifest.Decryption{{Decrypt: true, Keys: fluxKeys(t)}, {Keys: fluxKeys(t)}} {
		res, _ := loader.Load([]string{tampered}, loader.Options{Decryption: dec})
		if len(res.Problems) != 1 || res.Problems[0].Rule != manifest.RuleSOPSDecrypt || res.Problems[0].Line != 7 ||
			!strings.Contains(res.Problems[0].Message, "MAC does not match") || !strings.Contains(res.Problems[0].Message, "data.app.env") {
			t.Errorf("decrypt=%v tampered document: %v", dec.Decrypt, res.Problems)
		}
		if dec.Decrypt && len(res.Objects) != 0 {
			t.Errorf("a Secret with a tampered document is kept")
		}
	}
	// without a key, plan refuses the ciphertext
	res, _ = loader.Load([]string{file}, loader.Options{Decryption: manifest.Decryption{Decrypt: true, Keys: &sops.Keys{}}})
	if len(res.Objects) != 0 || len(res.Problems) != 1 || !strings.Contains(res.Problems[0].Message, "no key was given") || res.Problems[0].Line != 7 {
		t.Errorf("no key: %v, %d objects", res.Problems, len(res.Objects))
	}
}

// TestSOPSCiphertextNeverApplied: a value that is still ENC[...] (copied
// by hand out of a SOPS file, so no metadata decrypts it) is an error at
// its line for plan and apply, and marks the object encrypted for lint.
func TestSOPSCiphertextNeverApplied(t *testing.T) {
	file := filepath.Join(t.TempDir(), "cm.yaml")
	y := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: leaked\ndata:\n  ok: fine\n  token: ENC[AES256_GCM,data:odixwPeEzDNX68ZB7s9VZwvdHsE=,iv:CWjQxkJZgqhd0wjZ6hl71zdLHmX+0vZw/FqOGTfRbvs=,tag:bV+uZbySYRMwZDLhFOcr8A==,type:str]\n"
	if err := os.WriteFile(file, []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	res, _ := loader.Load([]string{file}, loader.Options{Decryption: manifest.Decryption{Decrypt: true, Keys: fluxKeys(t)}})
	if len(res.Objects) != 0 || len(res.Problems) != 1 || res.Problems[0].Rule != manifest.RuleSOPSDecrypt || res.Problems[0].Line != 7 || res.Problems[0].Col != 10 {
		t.Fatalf("plan of ciphertext: %v, %d objects", res.Problems, len(res.Objects))
	}
	res, _ = loader.Load([]string{file}, loader.Options{})
	if len(res.Problems) != 0 || len(res.Objects) != 1 || !res.Objects[0].Encrypted {
		t.Errorf("lint of ciphertext: %v", res.Problems)
	}
}

// A manifest that only talks about SOPS's formats (a ConfigMap quoting an
// INI file's [sops] section, a dotenv sops_mac line) is read as YAML:
// its objects are kept.
func TestSOPSMarkersInPlainManifest(t *testing.T) {
	file := filepath.Join(t.TempDir(), "docs.yaml")
	y := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: howto\ndata:\n  ini: |\n    [sops]\n    mac = ENC[AES256_GCM,data:x,iv:y,tag:z,type:str]\n  env: 'sops_mac=ENC[AES256_GCM,'\n"
	if err := os.WriteFile(file, []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	res, _ := loader.Load([]string{file}, loader.Options{})
	if len(res.Objects) != 1 || len(res.Problems) != 0 {
		t.Errorf("lint: %d objects, %v", len(res.Objects), res.Problems)
	}
	// plan refuses it: it holds ciphertext (a copied ENC[...] value)
	res, _ = loader.Load([]string{file}, loader.Options{Decryption: manifest.Decryption{Decrypt: true, Keys: fluxKeys(t)}})
	if len(res.Objects) != 0 || len(res.Problems) != 1 || res.Problems[0].Rule != manifest.RuleSOPSDecrypt {
		t.Errorf("plan: %d objects, %v", len(res.Objects), res.Problems)
	}
}
