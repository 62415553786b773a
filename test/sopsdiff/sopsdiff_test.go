package main

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kubeplan/kubeplan/internal/sops"
	"github.com/kubeplan/kubeplan/internal/testing/publicdata"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/manifest/loader"
)

const (
	root   = "../.."
	ours   = root + "/testdata/sops/kustomize"
	ageKey = root + "/testdata/sops/age-test-key.txt"
)

// fluxData is Flux's own test data (fluxcd/kustomize-controller's
// internal/decryptor testdata, with its LICENSE and SOURCE) where it is
// staged (publicdata: it is not committed), and its age key; "" when it
// is not staged.
func fluxData() (dir, age string) {
	r, err := publicdata.Root()
	if err != nil {
		return "", ""
	}
	dir = filepath.Join(r, "sops", "flux")
	if _, err := os.Stat(filepath.Join(dir, "kustomization.yaml")); err != nil {
		return "", ""
	}
	return dir, filepath.Join(dir, "keys", "age.txt")
}

// sopsBin is the sops CLI, installed by TestMain.
var sopsBin string

func TestMain(m *testing.M) {
	bin, err := Sops.Install(root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "installing the sops CLI (go run ./test/sopsdiff):", err)
		os.Exit(1)
	}
	sopsBin, _ = filepath.Abs(bin)
	os.Exit(m.Run())
}

// sopsDecrypt runs sops -d on file with the age key file, in an empty
// directory (no .sops.yaml), offline; extra are flags before the file.
func sopsDecrypt(t *testing.T, keyFile, file string, extra ...string) ([]byte, error) {
	t.Helper()
	abs, err := filepath.Abs(file)
	if err != nil {
		t.Fatal(err)
	}
	key, _ := filepath.Abs(keyFile)
	cmd := exec.Command(sopsBin, append(append([]string{"-d"}, extra...), abs)...)
	cmd.Dir = t.TempDir()
	cmd.Env = []string{"SOPS_AGE_KEY_FILE=" + key, "SOPS_DISABLE_VERSION_CHECK=1", "HOME=" + cmd.Dir, "PATH=/usr/bin:/bin"}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("sops -d %s: %w: %s", file, err, stderr.String())
	}
	return out, nil
}

func keys(t *testing.T, files ...string) *sops.Keys {
	t.Helper()
	k, err := sops.LoadKeys(sops.KeyOptions{Files: files, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// encryptedFiles are the fixtures encrypted for age keys, with their key.
func encryptedFiles(t *testing.T) map[string]string {
	t.Helper()
	files := map[string]string{}
	for _, pattern := range []string{ours + "/base/*.enc.*", ours + "/component/*.enc.*", root + "/testdata/sops/*.enc.yaml"} {
		m, _ := filepath.Glob(pattern)
		for _, f := range m {
			files[f] = ageKey
		}
	}
	if flux, fluxAge := fluxData(); flux != "" {
		for _, f := range []string{"envs/env.env", "component/env.env", "files/file.txt", "patches/merge1.yaml", "patches/merge2.yaml", "algorithms/age.yaml"} {
			files[filepath.Join(flux, f)] = fluxAge
		}
	}
	if len(files) < 12 {
		t.Fatalf("only %d fixtures found", len(files))
	}
	return files
}

// Every fixture: kubeplan's decryption prints what sops -d prints.
func TestDecryptEqualsSOPS(t *testing.T) {
	formats := map[sops.Format]int{}
	for file, key := range encryptedFiles(t) {
		t.Run(strings.TrimPrefix(file, root+"/testdata/sops/"), func(t *testing.T) {
			want, err := sopsDecrypt(t, key, file)
			if err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			in, ok := sops.Detect(data)
			if !ok {
				t.Fatalf("kubeplan does not see a SOPS file")
			}
			formats[in]++
			got, err := sops.DecryptFile(data, in, sops.FormatForPath(file), keys(t, key))
			if err != nil {
				t.Fatalf("kubeplan: %v", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("kubeplan decrypts %s to\n%q\nsops -d prints\n%q", in, got, want)
			}
		})
	}
	for _, f := range []sops.Format{sops.FormatYAML, sops.FormatJSON, sops.FormatDotenv, sops.FormatINI, sops.FormatBinary} {
		if formats[f] == 0 {
			t.Errorf("no fixture in the %s format", f)
		}
	}
}

// load builds dir as plan and apply do (decrypting with keyFiles).
func load(t *testing.T, dir string, keyFiles ...string) map[string]*manifest.Object {
	t.Helper()
	res, err := loader.Load([]string{dir}, loader.Options{Decryption: manifest.Decryption{Decrypt: true, Keys: keys(t, keyFiles...)}})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range res.Problems {
		t.Errorf("%s [%s]", p.Error(), p.Rule)
	}
	objs := map[string]*manifest.Object{}
	for _, o := range res.Objects {
		objs[o.Kind+"/"+o.Name] = o
	}
	return objs
}

// data is the data of a Secret (decoded) or ConfigMap, and stringData.
func data(t *testing.T, o *manifest.Object) map[string]string {
	t.Helper()
	if o == nil {
		t.Fatal("object missing")
	}
	out := map[string]string{}
	d, _ := o.Content["data"].(map[string]any)
	for k, v := range d {
		s, _ := v.(string)
		if o.Kind == "Secret" {
			b, err := base64.StdEncoding.DecodeString(s)
			if err != nil {
				t.Fatal(err)
			}
			s = string(b)
		}
		out[k] = s
	}
	sd, _ := o.Content["stringData"].(map[string]any)
	for k, v := range sd {
		out[k] = fmt.Sprint(v)
	}
	return out
}

// dotenv reads KEY=VALUE lines as kustomize's envs: does.
func dotenv(b []byte) map[string]string {
	out := map[string]string{}
	for _, l := range strings.Split(string(b), "\n") {
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		k, v, _ := strings.Cut(l, "=")
		out[k] = v
	}
	return out
}

// stringData is the stringData of the YAML sops -d prints.
func stringData(t *testing.T, b []byte) map[string]string {
	t.Helper()
	var doc struct {
		StringData map[string]string `yaml:"stringData"`
	}
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.StringData
}

// What kubeplan would apply holds what sops -d prints: every generator
// input (files: byte for byte, envs: key by key), the Secret data values
// that are SOPS documents (decrypted into the format their key names, as
// Flux does), the encrypted patch and the Component's encrypted resource
// and patch.
func TestAppliedEqualsSOPS(t *testing.T) {
	objs := load(t, ours+"/base", ageKey)
	dec := func(name string, extra ...string) []byte {
		b, err := sopsDecrypt(t, ageKey, filepath.Join(ours, name), extra...)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	files := data(t, objs["Secret/app-files"])
	for key, file := range map[string]string{"app.env": "base/app.enc.env", "config.json": "base/config.enc.json", "settings.ini": "base/settings.enc.ini", "token.bin": "base/token.enc.bin", "values.yaml": "base/values.enc.yaml"} {
		if want := dec(file); files[key] != string(want) {
			t.Errorf("secretGenerator files: %s = %q, sops -d prints %q", key, files[key], want)
		}
	}
	if got, want := data(t, objs["ConfigMap/app-config"])["config.json"], dec("base/config.enc.json"); got != string(want) {
		t.Errorf("configMapGenerator files: config.json = %q, sops -d prints %q", got, want)
	}
	env := data(t, objs["Secret/app-env"])
	wantEnv := dotenv(dec("base/app.enc.env"))
	for k, v := range stringData(t, dec("base/patch.enc.yaml")) {
		wantEnv[k] = v // the encrypted patch
	}
	if fmt.Sprint(env) != fmt.Sprint(wantEnv) {
		t.Errorf("secretGenerator envs + encrypted patch:\n got %q\nwant %q", env, wantEnv)
	}
	// the Component: its encrypted resource, and its encrypted patch of
	// the Secret of documents
	if got, want := data(t, objs["Secret/component-secret"]), stringData(t, dec("component/secret.enc.yaml")); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Component's encrypted Secret: %q, sops -d: %q", got, want)
	}
	docs := data(t, objs["Secret/documents"])
	if want := stringData(t, dec("component/patch.enc.yaml"))["from-component"]; docs["from-component"] != want || want == "" {
		t.Errorf("Component's encrypted patch: %q, sops -d: %q", docs["from-component"], want)
	}
	// the Secret whose data values are SOPS documents: each as sops -d
	// prints it in the format its key names
	raw := readDocuments(t)
	for key, doc := range raw {
		in, ok := sops.Detect(doc)
		if !ok {
			t.Fatalf("documents %s: not a SOPS document", key)
		}
		tmp := filepath.Join(t.TempDir(), "doc")
		if err := os.WriteFile(tmp, doc, 0o600); err != nil {
			t.Fatal(err)
		}
		want, err := sopsDecrypt(t, ageKey, tmp, "--input-type", sopsType(in), "--output-type", sopsType(sops.FormatForPath(key)))
		if err != nil {
			t.Fatal(err)
		}
		if docs[key] != string(want) {
			t.Errorf("documents %s (%s): %q, sops -d prints %q", key, in, docs[key], want)
		}
	}
	for _, o := range objs {
		for _, v := range data(t, o) {
			if strings.Contains(v, "ENC[") || strings.Contains(v, "sops_mac") {
				t.Errorf("%s/%s still holds ciphertext: %q", o.Kind, o.Name, v)
			}
		}
	}
}

// readDocuments is the data of the Secret of documents, as in git.
func readDocuments(t *testing.T) map[string][]byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(ours, "base/documents.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Data map[string]string `yaml:"data"`
	}
	if err := yaml.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for k, v := range s.Data {
		if out[k], err = base64.StdEncoding.DecodeString(v); err != nil {
			t.Fatal(err)
		}
	}
	if len(out) < 4 {
		t.Fatalf("documents: %d values", len(out))
	}
	return out
}

// sopsType is a format as sops's --input-type names it.
func sopsType(f sops.Format) string {
	return map[sops.Format]string{sops.FormatYAML: "yaml", sops.FormatJSON: "json", sops.FormatDotenv: "dotenv", sops.FormatINI: "ini", sops.FormatBinary: "binary"}[f]
}

// Flux's own test data (fluxcd/kustomize-controller): kubeplan applies
// what Flux's controller test expects, and its envs file as sops -d
// prints it.
func TestFluxTestData(t *testing.T) {
	flux := publicdata.Dir(t, "sops/flux")
	fluxAge := filepath.Join(flux, "keys", "age.txt")
	objs := load(t, flux, fluxAge, flux+"/keys/pgp.asc")
	for _, name := range []string{"sops-algo-age", "sops-algo-pgp", "sops-component", "sops-envs-secret", "sops-files-secret", "sops-inside-secret"} {
		if got := data(t, objs["Secret/"+name])["key"]; got != "value" {
			t.Errorf("Secret %s key = %q, Flux applies \"value\"", name, got)
		}
	}
	for _, name := range []string{"sops-envs-configmap", "sops-files-configmap"} {
		if got := data(t, objs["ConfigMap/"+name])["key"]; got != "value" {
			t.Errorf("ConfigMap %s key = %q, Flux applies \"value\"", name, got)
		}
	}
	p := data(t, objs["Secret/sops-patches-secret"])
	if p["key"] != "merge1" || p["merge2"] != "merge2" {
		t.Errorf("patched Secret: %q, Flux applies key=merge1 merge2=merge2", p)
	}
	want, err := sopsDecrypt(t, fluxAge, filepath.Join(flux, "envs/env.env"))
	if err != nil {
		t.Fatal(err)
	}
	if got := data(t, objs["Secret/sops-envs-secret"]); fmt.Sprint(got) != fmt.Sprint(dotenv(want)) {
		t.Errorf("envs: %q, sops -d: %q", got, dotenv(want))
	}
}

// tampers add a value in the clear to a file of each format, where
// someone editing it by hand would: the MAC covers it.
var tampers = map[string]func(string) string{
	"base/app.enc.env": func(s string) string { return "EXTRA_unencrypted=added-by-hand\n" + s },
	"base/config.enc.json": func(s string) string {
		return strings.Replace(s, "{", "{\n\t\"extra_unencrypted\": \"added-by-hand\",", 1)
	},
	"base/token.enc.bin": func(s string) string {
		return strings.Replace(s, "{", "{\n\t\"extra_unencrypted\": \"added-by-hand\",", 1)
	},
	"base/settings.enc.ini": func(s string) string {
		return strings.Replace(s, "[cache]\n", "[cache]\nextra_unencrypted = added-by-hand\n", 1)
	},
	"base/values.enc.yaml": func(s string) string { return "extra_unencrypted: added-by-hand\n" + s },
	"base/patch.enc.yaml":  func(s string) string { return strings.Replace(s, "name: app-env", "name: app-env-tampered", 1) },
}

// A file whose MAC does not match is refused by sops -d and by kubeplan:
// its decryption, plan's loading (nothing built) and lint with the key.
func TestTamperedMACRefusedByBoth(t *testing.T) {
	for name, tamper := range tampers {
		t.Run(name, func(t *testing.T) {
			base := copyTree(t)
			file := filepath.Join(base, filepath.Base(name))
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			changed := tamper(string(b))
			if changed == string(b) {
				t.Fatal("the tamper changed nothing")
			}
			if err := os.WriteFile(file, []byte(changed), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := sopsDecrypt(t, ageKey, file); err == nil || !strings.Contains(err.Error(), "MAC mismatch") {
				t.Errorf("sops -d accepts the tampered file: %v", err)
			}
			in, _ := sops.Detect([]byte(changed))
			_, err = sops.DecryptFile([]byte(changed), in, sops.FormatForPath(file), keys(t, ageKey))
			var se *sops.Error
			if !errors.As(err, &se) || !strings.Contains(err.Error(), "MAC does not match") || se.Line < 2 {
				t.Errorf("kubeplan decrypts the tampered file: %v", err)
			}
			for _, dec := range []manifest.Decryption{{Decrypt: true, Keys: keys(t, ageKey)}, {Keys: keys(t, ageKey)}} {
				res, err := loader.Load([]string{base}, loader.Options{Decryption: dec, Root: filepath.Dir(base)})
				if err != nil {
					t.Fatal(err)
				}
				found := false
				for _, p := range res.Problems {
					found = found || p.Rule == manifest.RuleSOPSDecrypt && filepath.Base(p.File) == filepath.Base(file) && strings.Contains(p.Message, "MAC does not match")
				}
				if !found {
					t.Errorf("decrypt=%v: no sops-decrypt problem at %s: %v", dec.Decrypt, filepath.Base(file), res.Problems)
				}
				if dec.Decrypt && len(res.Objects) > 0 {
					t.Errorf("plan built %d objects from a tampered file", len(res.Objects))
				}
			}
		})
	}
}

// copyTree copies the kustomization (base and component) to a temporary
// directory and returns its base.
func copyTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, sub := range []string{"base", "component"} {
		entries, err := os.ReadDir(filepath.Join(ours, sub))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			b, err := os.ReadFile(filepath.Join(ours, sub, e.Name()))
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
