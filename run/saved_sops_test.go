package run

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"filippo.io/age"
	yaml "go.yaml.in/yaml/v3"

	"github.com/kubeplan/kubeplan/internal/sops"
	"github.com/kubeplan/kubeplan/internal/sops/sopstest"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/project"
)

// plan --out DIR refuses plans holding decrypted values, as plan --out
// FILE does, and writes nothing: neither an object read from a SOPS file
// (Decrypted) nor one holding a value copied from it. A decrypted value
// in a failed project's error is hidden in its file.
func TestSaveDirRefusesDecrypted(t *testing.T) {
	const canary = "kp-canary-run-5e21d0"
	id, err := age.GenerateX25519Identity()
	if err != nil {
		t.Fatal(err)
	}
	enc, err := sopstest.Encrypt([]byte("kind: Secret\nstringData:\n  k: "+canary+"\n"), id.Recipient().String(), "^(data|stringData)$")
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(enc)).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if err := sops.Decrypt([]*yaml.Node{&doc}, sops.Find([]*yaml.Node{&doc}), &sops.Keys{Age: []age.Identity{id}}); err != nil {
		t.Fatal(err)
	}
	copied := map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "data": map[string]any{"k": canary}}
	for name, c := range map[string]plan.Change{
		"read from a SOPS file": {Ref: plan.Ref{Version: "v1", Kind: "Secret", Name: "db"}, Source: plan.Source{File: "apps/db.enc.yaml"}, Decrypted: true, Diff: "+k: '***'"},
		"copied from one":       {Ref: plan.Ref{Version: "v1", Kind: "ConfigMap", Name: "copy"}, Source: plan.Source{File: "apps/kustomization.yaml"}, Object: copied},
	} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "plans")
			r := &Report{Version: FormatVersion, Projects: []ProjectReport{
				{Project: project.Project{Name: "web"}, Status: Changes, Plan: &plan.Plan{Changes: []plan.Change{c}}},
			}}
			err := SaveDir(dir, r)
			if err == nil || !strings.Contains(err.Error(), c.Source.File) || !strings.Contains(err.Error(), "decrypted") {
				t.Fatalf("SaveDir: %v", err)
			}
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Error("SaveDir made the directory")
			}
		})
	}
	dir := t.TempDir()
	r := &Report{Version: FormatVersion, Projects: []ProjectReport{{Project: project.Project{Name: "api"}, Status: Failed, Error: "dry-run: invalid value \"" + canary + "\""}}}
	if err := SaveDir(dir, r); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "api.kubeplan.json"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), canary) || !strings.Contains(string(data), "invalid value") {
		t.Errorf("the project file:\n%s", data)
	}
}
