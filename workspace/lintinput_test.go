package workspace

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/lint"
)

// names are the names of the projects in.
func names(in lint.Input) []string {
	var out []string
	for _, p := range in.Projects {
		out = append(out, p.Name)
	}
	return out
}

// Without a project flag, lint reads the projects kubeplan.yaml declares
// under the paths, with their settings and their dependencies' CRDs, and
// the paths no declared project covers as they are; --kube-version is
// the version of them all.
func TestLintInputDeclaredFirst(t *testing.T) {
	dir := repo(t)
	if err := os.Mkdir(filepath.Join(dir, "loose"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "loose", "cm.yaml"), []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: loose\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	// a kubeplan.yaml declares projects only in the git work tree holding
	// the paths, at or above them
	in, _, _, err := LintInput(Options{}, []string{"apps/web", "loose"}, "")
	if err != nil || len(in.Projects) != 0 || len(in.Paths) != 2 {
		t.Fatalf("outside a work tree: projects %q, paths %q, %v", names(in), in.Paths, err)
	}
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	in, opts, none, err := LintInput(Options{Overrides: Overrides{KubeVersion: ptr("1.36")}}, []string{"apps/web", "loose"}, "shop")
	if err != nil || none {
		t.Fatalf("none %v, %v", none, err)
	}
	if !slices.Equal(names(in), []string{"apps-web"}) || !slices.Equal(in.Paths, []string{"loose"}) || in.ProjectRoot != "." {
		t.Errorf("projects %q, paths %q, root %q", names(in), in.Paths, in.ProjectRoot)
	}
	if !slices.Contains(in.CRDPaths, filepath.Join("platform", "crd.yaml")) {
		t.Errorf("CRDPaths = %q, want platform's files", in.CRDPaths)
	}
	if in.Projects[0].KubeVersion != "" || opts.KubeVersion != "1.36" || opts.Namespace != "shop" {
		t.Errorf("project version %q, run version %q, namespace %q", in.Projects[0].KubeVersion, opts.KubeVersion, opts.Namespace)
	}
}

// Paths no kubeplan.yaml declares a project for are read as they are.
func TestLintInputPaths(t *testing.T) {
	dir := write(t, map[string]string{"a.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n"})
	t.Chdir(dir)
	in, _, none, err := LintInput(Options{}, []string{"a.yaml"}, "")
	if err != nil || none || !slices.Equal(in.Paths, []string{"a.yaml"}) || len(in.Projects) != 0 {
		t.Errorf("paths %q, projects %q, none %v, %v", in.Paths, names(in), none, err)
	}
}

// --project, --all and --changed-since lint the projects selected under
// the one path, with their dependencies' CRDs, and no path; a selection
// of none is nothing to lint; several paths are refused.
func TestLintInputSelected(t *testing.T) {
	dir := repo(t)
	t.Chdir(dir)
	in, _, none, err := LintInput(Options{Overrides: Overrides{Projects: []string{"apps-web"}}}, nil, "")
	if err != nil || none {
		t.Fatalf("none %v, %v", none, err)
	}
	if !slices.Equal(names(in), []string{"apps-web"}) || in.Paths != nil || in.ProjectRoot != "." {
		t.Errorf("projects %q, paths %q, root %q", names(in), in.Paths, in.ProjectRoot)
	}
	if !slices.Contains(in.CRDPaths, filepath.Join("platform", "crd.yaml")) || in.Projects[0].KubeVersion != "1.34" {
		t.Errorf("CRDPaths = %q, version %q", in.CRDPaths, in.Projects[0].KubeVersion)
	}
	if _, _, _, err := LintInput(Options{Overrides: Overrides{Projects: []string{"nope"}}}, nil, ""); err == nil ||
		!strings.Contains(err.Error(), "--project nope: no such project") {
		t.Errorf("unknown project: %v", err)
	}
	if _, _, _, err := LintInput(Options{Overrides: Overrides{All: true}}, []string{"apps", "platform"}, ""); err == nil ||
		!strings.Contains(err.Error(), "take one PATH") {
		t.Errorf("two paths: %v", err)
	}
	t.Chdir(t.TempDir())
	if in, _, none, err := LintInput(Options{Overrides: Overrides{All: true}}, nil, ""); err != nil || !none || len(in.Projects) != 0 {
		t.Errorf("no project: none %v, projects %q, %v", none, names(in), err)
	}
}
