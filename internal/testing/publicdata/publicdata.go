package publicdata

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/kubeplan/kubeplan/internal/benchkit"
)

// Env names the directory of the staged public inputs.
const Env = "KUBEPLAN_PUBLIC"

// Root is the directory of the staged public inputs: $KUBEPLAN_PUBLIC,
// else shared/public beside the checkout (it may not exist).
func Root() (string, error) {
	if d := os.Getenv(Env); d != "" {
		return d, nil
	}
	root, err := benchkit.ModuleRoot()
	if err != nil {
		return "", err
	}
	return filepath.Join(root, "..", "shared", "public"), nil
}

// Dir is the directory sub of the staged public inputs. When it is not
// staged, the test is skipped with a message saying so and how to stage
// it: the suites over kubeplan's own fixtures run regardless.
func Dir(t testing.TB, sub string) string {
	t.Helper()
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	d := filepath.Join(root, sub)
	if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
		t.Skipf("public inputs %s are not staged (set %s, see docs/conformance.md): they cannot be committed here", d, Env)
	}
	return d
}
