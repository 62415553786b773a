package render

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"filippo.io/age"
	yaml "go.yaml.in/yaml/v3"

	"github.com/kubeplan/kubeplan/internal/sops"
	"github.com/kubeplan/kubeplan/internal/sops/sopstest"
)

// A value decrypted from SOPS is hidden by the ScrubWriter even when it is
// written in pieces; a question without a line break is shown before its
// answer is read.
func TestScrubWriter(t *testing.T) {
	const canary = "kp-canary-render-6d1e88"
	var out bytes.Buffer
	w := NewScrubWriter(&out)
	io.WriteString(w, "before: nothing decrypted yet\n")
	if out.String() != "before: nothing decrypted yet\n" {
		t.Fatalf("not written through: %q", out.String())
	}
	id, err := age.GenerateX25519Identity()
	if err != nil {
		t.Fatal(err)
	}
	enc, err := sopstest.Encrypt([]byte("kind: Secret\nstringData:\n  k: "+canary+"\n"), id.Recipient().String(), "^(data|stringData)$")
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
	out.Reset()
	for _, piece := range []string{"data: kp-canary-", "render-6d1e88\r", "json: \"", canary[:5], canary[5:], "\"\n", "Apply? "} {
		io.WriteString(w, piece)
	}
	if got := out.String(); got != "data: ***\rjson: \"***\"\n" {
		t.Errorf("written %q", got)
	}
	r := FlushingReader(strings.NewReader("yes\n"), w)
	if _, err := io.ReadAll(r); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(out.String(), "Apply? ") {
		t.Errorf("the question was not shown before the answer was read: %q", out.String())
	}
	io.WriteString(w, "last "+canary)
	w.Flush()
	if strings.Contains(out.String(), canary) || !strings.HasSuffix(out.String(), "last ***") {
		t.Errorf("written %q", out.String())
	}
}
