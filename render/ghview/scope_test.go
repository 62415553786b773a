package ghview

import (
	"os"
	"path/filepath"
	"testing"
)

// The scope names the config relative to the top of its git repository,
// whatever directory it is given from, with the repository and workflow.
func TestScope(t *testing.T) {
	repo := t.TempDir()
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(repo, "deploy", "prod"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := func(k string) string {
		return map[string]string{"GITHUB_REPOSITORY": "acme/shop", "GITHUB_WORKFLOW": "plan"}[k]
	}
	cfg := filepath.Join(repo, "deploy", "prod", "kubeplan.yaml")
	if got, want := Scope(env, cfg), "acme/shop:deploy/prod/kubeplan.yaml@plan"; got != want {
		t.Errorf("Scope = %q, want %q", got, want)
	}
	if got, want := Scope(env, filepath.Join(repo, "kubeplan.yaml")), "acme/shop:kubeplan.yaml@plan"; got != want {
		t.Errorf("Scope at the top = %q, want %q", got, want)
	}
}
