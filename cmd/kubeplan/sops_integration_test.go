package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"filippo.io/age"

	"github.com/kubeplan/kubeplan/internal/sops/sopstest"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

// SOPS-encrypted Secrets as Flux users keep them (an encrypted Secret in a
// base, an encrypted patch in the overlay), with an age key made here:
// lint reads them as in git; plan and apply decrypt them in memory; the
// Secret in the cluster holds the plaintext; no output and no file holds
// it; without the key, or with a wrong one, nothing is written.
func TestIntegrationSOPS(t *testing.T) {
	testkube.Integration(t)
	t.Setenv("KUBEPLAN_CACHE_DIR", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // never a developer's own keys
	t.Setenv("SOPS_AGE_KEY_FILE", "")
	t.Setenv("SOPS_AGE_KEY", "")
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	kc := c.Narrow(t, "gitops", ns)

	id, err := age.GenerateX25519Identity()
	if err != nil {
		t.Fatal(err)
	}
	keyFile := filepath.Join(t.TempDir(), "keys.txt")
	if err := os.WriteFile(keyFile, []byte("# test key\n"+id.String()+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	const basePassword, prodPassword, apiToken = "base-pa55word-7d1c", "prod-pa55word-93fa", "tok-4f1e0c2b9a"
	enc := func(plain string) string {
		out, err := sopstest.Encrypt([]byte(plain), id.Recipient().String(), "^(data|stringData)$")
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	repo := t.TempDir()
	files := map[string]string{
		"apps/orders/base/kustomization.yaml":              "resources:\n  - deployment.yaml\n  - db-credentials.enc.yaml\n",
		"apps/orders/base/deployment.yaml":                 "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: orders\nspec:\n  replicas: 1\n  selector:\n    matchLabels: {app: orders}\n  template:\n    metadata:\n      labels: {app: orders}\n    spec:\n      containers:\n        - name: orders\n          image: nginx:1.30\n          envFrom:\n            - secretRef: {name: db-credentials}\n",
		"apps/orders/base/db-credentials.enc.yaml":         enc("apiVersion: v1\nkind: Secret\nmetadata:\n  name: db-credentials\ntype: Opaque\nstringData:\n  DB_USER: orders\n  DB_PASSWORD: " + basePassword + "\n  API_TOKEN: " + apiToken + "\n"),
		"apps/orders/overlays/dev/kustomization.yaml":      "namespace: " + ns + "\nresources:\n  - ../../base\npatches:\n  - path: db-credentials.enc.yaml\n",
		"apps/orders/overlays/dev/db-credentials.enc.yaml": enc("apiVersion: v1\nkind: Secret\nmetadata:\n  name: db-credentials\nstringData:\n  DB_PASSWORD: " + prodPassword + "\n"),
	}
	for name, body := range files {
		p := filepath.Join(repo, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	overlay := filepath.Join(repo, "apps/orders/overlays/dev")
	var outputs []string
	run := func(args ...string) (int, string, string) {
		code, stdout, stderr := cli(args...)
		outputs = append(outputs, stdout, stderr)
		return code, stdout, stderr
	}
	noSecret := func(step string) {
		t.Helper()
		if got := c.Kubectl(t, "-n", ns, "get", "secret", "--ignore-not-found", "-o", "name"); strings.Contains(got, "db-credentials") {
			t.Fatalf("%s: the Secret was written: %s", step, got)
		}
	}
	cluster := []string{"--kubeconfig", kc, "-n", ns, "--applyset", "configmap/orders"}

	// lint needs no key: the Secret is ciphertext in git.
	if code, stdout, stderr := run("lint", overlay); code != 0 || strings.Contains(stdout, "plaintext-secret") {
		t.Fatalf("lint: exit %d\n%s\n%s", code, stdout, stderr)
	}
	// No key, then a wrong key: one error naming the recipient, nothing written.
	code, stdout, stderr := run(append([]string{"apply", "--auto-approve"}, append(cluster, overlay)...)...)
	if code != 1 || !strings.Contains(stdout+stderr, id.Recipient().String()) || !strings.Contains(stdout+stderr, "SOPS_AGE_KEY_FILE") {
		t.Fatalf("apply without a key: exit %d\n%s\n%s", code, stdout, stderr)
	}
	noSecret("no key")
	other, _ := age.GenerateX25519Identity()
	otherFile := filepath.Join(t.TempDir(), "other.txt")
	os.WriteFile(otherFile, []byte(other.String()+"\n"), 0o600)
	if code, stdout, stderr := run(append([]string{"apply", "--auto-approve", "--decryption-key-file", otherFile}, append(cluster, overlay)...)...); code != 1 || !strings.Contains(stdout+stderr, "sops-decrypt") {
		t.Fatalf("apply with a wrong key: exit %d\n%s\n%s", code, stdout, stderr)
	}
	noSecret("wrong key")

	// plan with the key: text, JSON and markdown show the change, never the values.
	for _, o := range []string{"text", "json", "markdown"} {
		code, stdout, stderr := run(append([]string{"plan", "--decryption-key-file", keyFile, "-o", o}, append(cluster, overlay)...)...)
		if code != 0 || !strings.Contains(stdout, "db-credentials") {
			t.Fatalf("plan -o %s: exit %d\n%s\n%s", o, code, stdout, stderr)
		}
	}
	// A saved plan would hold the decrypted values: refused, no file.
	saved := filepath.Join(t.TempDir(), "plan.json")
	if code, _, stderr := run(append([]string{"plan", "--decryption-key-file", keyFile, "--out", saved}, append(cluster, overlay)...)...); code != 1 || !strings.Contains(stderr, "never writes decrypted values to disk") {
		t.Fatalf("plan --out: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(saved); err == nil {
		t.Fatal("plan --out wrote a file")
	}
	// apply with SOPS_AGE_KEY_FILE: the cluster holds the plaintext.
	t.Setenv("SOPS_AGE_KEY_FILE", keyFile)
	if code, stdout, stderr := run(append([]string{"apply", "--auto-approve", "--wait=false"}, append(cluster, overlay)...)...); code != 0 || !strings.Contains(stdout, "secret/db-credentials created") {
		t.Fatalf("apply: exit %d\n%s\n%s", code, stdout, stderr)
	}
	for key, want := range map[string]string{"DB_PASSWORD": prodPassword, "API_TOKEN": apiToken, "DB_USER": "orders"} {
		got := c.Kubectl(t, "-n", ns, "get", "secret", "db-credentials", "-o", "go-template={{index .data \""+key+"\" | base64decode}}")
		if got != want {
			t.Errorf("%s in the cluster = %q, want the decrypted value", key, got)
		}
	}
	if code, stdout, stderr := run(append([]string{"plan", "--detailed-exitcode"}, append(cluster, overlay)...)...); code != 0 {
		t.Errorf("plan after apply: exit %d\n%s\n%s", code, stdout, stderr)
	}
	// No output held a decrypted value; no file in the repository does.
	for _, out := range outputs {
		for _, v := range []string{basePassword, prodPassword, apiToken} {
			if strings.Contains(out, v) {
				t.Fatalf("an output holds a decrypted value:\n%s", out)
			}
		}
	}
	filepath.WalkDir(repo, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, _ := os.ReadFile(p)
		for _, v := range []string{basePassword, prodPassword, apiToken} {
			if strings.Contains(string(data), v) {
				t.Errorf("%s holds a decrypted value", p)
			}
		}
		return nil
	})
}
