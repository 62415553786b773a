package serve

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	dynamicfake "k8s.io/client-go/dynamic/fake"

	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/source"
)

// gitCommit writes files in the repository dir, commits them and
// returns the commit.
func gitCommit(t *testing.T, dir string, files map[string]string) string {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out []byte
	for _, args := range [][]string{{"add", "-A"}, {"-c", "user.name=dev", "-c", "user.email=dev@example.com", "commit", "-q", "-m", "c"}, {"rev-parse", "HEAD"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		var err error
		if out, err = cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return strings.TrimSpace(string(out))
}

func parent(name, revision, result string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion("v1")
	u.SetKind("ConfigMap")
	u.SetNamespace("shop")
	u.SetName(name)
	u.SetAnnotations(map[string]string{"kubeplan.dev/revision": revision, "kubeplan.dev/result": result})
	return u
}

// TestChangedProjects: a push runs the projects a change since each one's
// last applied revision affects: the revision of its last successful run
// in this process, else its parent's when that run succeeded; a project
// with neither (or whose parent records a failed run) runs.
func TestChangedProjects(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", "-b", "main", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	cfg := "projects:\n"
	for _, n := range []string{"a", "b", "c", "d"} {
		cfg += "  - name: " + n + "\n    path: " + n + "\n    namespace: shop\n    applyset: configmap/" + n + "-set\n"
	}
	files := map[string]string{"kubeplan.yaml": cfg}
	for _, n := range []string{"a", "b", "c", "d"} {
		files[n+"/cm.yaml"] = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + n + "\n"
	}
	first := gitCommit(t, dir, files)
	second := gitCommit(t, dir, map[string]string{"a/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata: {x: y}\n"})

	// b's parent says it applied first; c's that its last run failed; d
	// has no parent.
	dyn := dynamicfake.NewSimpleDynamicClient(runtime.NewScheme(),
		parent("a-set", first, "ok"), parent("b-set", first, "ok"), parent("c-set", first, "failed"))
	connect := func(project.Project) (*kube.Client, string, error) {
		return &kube.Client{Dynamic: dyn, Namespace: "shop"}, "test", nil
	}
	s := &server{o: Options{}, cls: newClusters(connect), log: &strings.Builder{}, applied: map[string]string{}}
	f := &fetcher{}
	ws, err := f.open(dir, dir)
	if err != nil {
		t.Fatal(err)
	}
	ps, _ := ws.Projects()
	co := checkout{rev: source.Revision{SHA: second}, ws: ws}

	if got := s.changedProjects(context.Background(), co, ps); !slices.Equal(got, []string{"a", "c", "d"}) {
		t.Errorf("changed %v, want [a c d]: a changed since its parent's revision, c's parent records a failure, d has none", got)
	}
	// b did not change since its parent's revision: it counts as applied at
	// second, and the next push compares it from there.
	if s.applied["b"] != second {
		t.Errorf("b applied at %q, want %q: an unchanged project moves to the commit it was compared with", s.applied["b"], second)
	}
	// This process applied a at second and d at first: a is in sync, d
	// did not change.
	s.appliedAt("a", second)
	s.appliedAt("d", first)
	if got := s.changedProjects(context.Background(), co, ps); !slices.Equal(got, []string{"c"}) {
		t.Errorf("changed %v, want [c]", got)
	}
	if s.applied["d"] != second {
		t.Errorf("d applied at %q, want %q", s.applied["d"], second)
	}
	// A revision the clone does not have: that project runs.
	s.appliedAt("d", strings.Repeat("0", 40))
	if got := s.changedProjects(context.Background(), co, ps); !slices.Equal(got, []string{"c", "d"}) {
		t.Errorf("changed %v, want [c d]", got)
	}
}
