package ghview

import (
	"strings"
	"testing"

	"filippo.io/age"
	yaml "go.yaml.in/yaml/v3"

	"github.com/kubeplan/kubeplan/internal/sops"
	"github.com/kubeplan/kubeplan/internal/sops/sopstest"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/plan"
)

func TestMaskerOnce(t *testing.T) {
	var b strings.Builder
	m := newMasker(&b)
	m.add("ghs_token1234", "")
	m.objects([]*manifest.Object{
		{Content: map[string]any{"apiVersion": "v1", "kind": "Secret", "stringData": map[string]any{"a": "hunter22", "b": "ok"}}},
		{Content: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "data": map[string]any{"a": "not-secret"}}},
	})
	m.plan(&plan.Plan{Changes: []plan.Change{{Object: map[string]any{"apiVersion": "v1", "kind": "Secret", "stringData": map[string]any{"a": "hunter22", "c": "line one\nline two"}}}}})
	want := "::add-mask::ghs_token1234\n::add-mask::hunter22\n::add-mask::line one\n::add-mask::line two\n"
	if b.String() != want {
		t.Errorf("masks:\n%s\nwant:\n%s", b.String(), want)
	}
	if got := m.scrub("token ghs_token1234, password hunter22, not-secret, ok"); got != "token ***, password ***, not-secret, ok" {
		t.Errorf("scrub = %q", got)
	}
}

// Every value decrypted from SOPS is registered with the runner, line by
// line, as soon as the objects are loaded, whatever object it ended up in,
// and hidden in what the runner does not mask. (After TestMaskerOnce: the
// record of decrypted values is process-wide.)
func TestMaskerDecrypted(t *testing.T) {
	const canary = "kp-canary-ghview-93ab17"
	id, err := age.GenerateX25519Identity()
	if err != nil {
		t.Fatal(err)
	}
	enc, err := sopstest.Encrypt([]byte("kind: Secret\nstringData:\n  k: "+canary+"\n  pem: |\n    first-line-9f2c\n    second-line-9f2c\n"), id.Recipient().String(), "^(data|stringData)$")
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(enc, &doc); err != nil {
		t.Fatal(err)
	}
	docs := []*yaml.Node{&doc}
	if err := sops.Decrypt(docs, sops.Find(docs), &sops.Keys{Age: []age.Identity{id}}); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	m := newMasker(&b)
	m.objects([]*manifest.Object{{Content: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "data": map[string]any{"copied": canary}}}})
	for _, want := range []string{"::add-mask::" + canary + "\n", "::add-mask::first-line-9f2c\n", "::add-mask::second-line-9f2c\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("masks lack %q:\n%s", want, b.String())
		}
	}
	if got := m.scrub("copied: " + canary + ", pem first-line-9f2c"); got != "copied: ***, pem ***" {
		t.Errorf("scrub = %q", got)
	}
}

// A pull request chooses its Secrets' values: one that is kubeplan's own
// words ("2 to prune") is not registered with the runner nor scrubbed from
// the comment, so it cannot hide that a plan prunes.
func TestMaskerOwnWords(t *testing.T) {
	var b strings.Builder
	m := newMasker(&b)
	m.objects([]*manifest.Object{
		{Content: map[string]any{"apiVersion": "v1", "kind": "Secret", "stringData": map[string]any{"a": "2 to prune", "b": "prune", "c": "hunter22"}}},
	})
	// (Other tests' decrypted values may be registered too: the record is
	// process-wide.)
	if !strings.Contains(b.String(), "::add-mask::hunter22\n") || strings.Contains(b.String(), "prune") {
		t.Errorf("masks:\n%s\nwant hunter22 and no prune", b.String())
	}
	if got := m.scrub("Plan: 0 to add, 0 to change, 2 to prune, 1 unchanged. hunter22"); got != "Plan: 0 to add, 0 to change, 2 to prune, 1 unchanged. ***" {
		t.Errorf("scrub = %q", got)
	}
}
