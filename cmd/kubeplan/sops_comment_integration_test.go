package main

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"filippo.io/age"

	"github.com/kubeplan/kubeplan/internal/sops/sopstest"
	"github.com/kubeplan/kubeplan/internal/testing/githubtest"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

// A value decrypted from SOPS and copied out of its Secret by a
// kustomization (a replacement into a ConfigMap and an annotation, a
// configMapGenerator over the encrypted file, a patch that turns the
// Secret into a ConfigMap) is in neither the pull-request comment nor the
// job summary nor the outputs, and is in the log only as its
// ::add-mask:: command, which comes before any line that could show it.
// (This test runs after the GitHub ones: the record of decrypted values
// is process-wide.)
func TestIntegrationSOPSCommentMasked(t *testing.T) {
	testkube.Integration(t)
	t.Setenv("KUBEPLAN_CACHE_DIR", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("SOPS_AGE_KEY_FILE", "")
	t.Setenv("SOPS_AGE_KEY", "")
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	kc := c.Narrow(t, "gitops", ns)
	srv := githubtest.New(t, ghRepo, ghToken)
	sim := newGitHubSim(t, srv, "pull_request")

	const canary = "kpcanary-comment-8e4b2f61"
	b64 := base64.StdEncoding.EncodeToString([]byte(canary))
	id, err := age.GenerateX25519Identity()
	if err != nil {
		t.Fatal(err)
	}
	keyFile := filepath.Join(t.TempDir(), "keys.txt")
	if err := os.WriteFile(keyFile, []byte(id.String()+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	encrypt := func(name string) string {
		enc, err := sopstest.Encrypt([]byte("apiVersion: v1\nkind: Secret\nmetadata:\n  name: "+name+"\nstringData:\n  password: "+canary+"\n"), id.Recipient().String(), "^(data|stringData)$")
		if err != nil {
			t.Fatal(err)
		}
		return string(enc)
	}
	dir := t.TempDir()
	for name, body := range map[string]string{
		"secret.enc.yaml": encrypt("db"),
		"turned.enc.yaml": encrypt("turned"),
		"copy.yaml":       "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: copy\n  annotations: {leaked: x}\ndata: {leaked: x}\n",
		"kustomization.yaml": `resources: [secret.enc.yaml, turned.enc.yaml, copy.yaml]
configMapGenerator:
- name: gen
  files: [secret.enc.yaml]
replacements:
- source: {kind: Secret, name: db, fieldPath: stringData.password}
  targets:
  - select: {kind: ConfigMap, name: copy}
    fieldPaths: [data.leaked, metadata.annotations.leaked]
patches:
- target: {kind: Secret, name: turned}
  patch: |
    - {op: replace, path: /kind, value: ConfigMap}
    - {op: move, from: /stringData, path: /data}
`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out := runCombined("plan", "--kubeconfig", kc, "-n", ns, "--applyset", "configmap/sops", "--decryption-key-file", keyFile, dir)
	if code != 0 {
		t.Fatalf("plan: exit %d\n%s", code, out)
	}
	first := strings.Index(out, "::add-mask::"+canary+"\n")
	if first < 0 || strings.Count(out, canary) != 1 || strings.Count(out, b64) != 1 {
		t.Errorf("the log shows the canary other than in its ::add-mask::\n%s", out)
	}
	if i := strings.Index(out, "configmap/copy"); i < 0 || i < first {
		t.Errorf("configmap/copy is shown before the mask, or not at all:\n%s", out)
	}
	comments := srv.Comments(ghRepo, ghPR)
	if len(comments) != 1 {
		t.Fatalf("%d comments", len(comments))
	}
	body := comments[0].Body
	if !strings.Contains(body, "`configmap/copy`") || !strings.Contains(body, "***") {
		t.Errorf("the comment lacks the derived ConfigMap or a mask:\n%s", body)
	}
	for what, text := range map[string]string{"comment": body, "summary": sim.read(t, sim.summary), "outputs": sim.read(t, sim.outputs)} {
		if strings.Contains(text, canary) || strings.Contains(text, b64) {
			t.Errorf("the %s shows the decrypted value:\n%s", what, text)
		}
	}
}
