package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/project"
)

// twoProjects writes two plain manifest projects, a and b, each defining
// configmap/shared (b twice when dupInB), and returns their root.
func twoProjects(t *testing.T, dupInB bool) string {
	t.Helper()
	root := t.TempDir()
	cm := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: shared}\n"
	files := map[string]string{"a/cm.yaml": cm, "b/cm.yaml": cm}
	if dupInB {
		files["b/copy.yaml"] = cm
	}
	for name, content := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// loaded are the projects a and b with the given settings.
func loaded(root string, a, b project.Project) []project.Project {
	a.Name, a.Path, a.Kind, a.Files = "a", "a", project.Manifests, []string{"a/cm.yaml"}
	b.Name, b.Path, b.Kind = "b", "b", project.Manifests
	entries, _ := os.ReadDir(filepath.Join(root, "b"))
	for _, e := range entries {
		b.Files = append(b.Files, "b/"+e.Name())
	}
	return []project.Project{a, b}
}

func duplicates(t *testing.T, root string, ps []project.Project, opts Options) []Finding {
	t.Helper()
	rep, _, err := Check(Input{Projects: ps, ProjectRoot: root}, opts)
	if err != nil {
		t.Fatal(err)
	}
	var out []Finding
	for _, f := range rep.Findings {
		switch f.Rule {
		case duplicateRule:
			out = append(out, f)
		case "namespace-mismatch": // an object's namespace is not its project's
		default:
			t.Errorf("unexpected finding %+v", f)
		}
	}
	return out
}

// Two projects with one object collide only when they put it in one cluster
// and one namespace.
func TestCrossProjectDuplicates(t *testing.T) {
	root := twoProjects(t, false)
	same := duplicates(t, root, loaded(root, project.Project{Namespace: "ns", ClusterName: "prod"}, project.Project{Namespace: "ns", ClusterName: "prod"}), Options{})
	if len(same) != 1 || same[0].File != filepath.Join(root, "b/cm.yaml") || same[0].Line != 3 ||
		same[0].Message != `configmap/shared in namespace "ns" is also defined by project a, at `+filepath.Join(root, "a/cm.yaml")+
			":3, and projects a and b apply to one cluster, where their ApplySets would fight over it; remove one copy or rename it" {
		t.Errorf("same cluster and namespace: %+v", same)
	}
	for name, ps := range map[string][]project.Project{
		"other namespace": loaded(root, project.Project{Namespace: "ns"}, project.Project{Namespace: "other"}),
		"other cluster":   loaded(root, project.Project{Namespace: "ns", ClusterName: "a"}, project.Project{Namespace: "ns", ClusterName: "b"}),
	} {
		if got := duplicates(t, root, ps, Options{}); len(got) != 0 {
			t.Errorf("%s: %+v", name, got)
		}
	}
	// an object's own namespace is where it goes, whatever its project's
	explicit := twoProjects(t, false)
	for _, d := range []string{"a", "b"} {
		p := filepath.Join(explicit, d, "cm.yaml")
		if err := os.WriteFile(p, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: shared, namespace: x}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got := duplicates(t, explicit, loaded(explicit, project.Project{Namespace: "a"}, project.Project{Namespace: "b"}), Options{}); len(got) != 1 || !strings.Contains(got[0].Message, `in namespace "x"`) {
		t.Errorf("explicit namespace x in both: %+v", got)
	}
	// -n puts both in one namespace; the rule can be turned off.
	ps := loaded(root, project.Project{Namespace: "ns"}, project.Project{Namespace: "other"})
	if got := duplicates(t, root, ps, Options{Namespace: "x"}); len(got) != 1 {
		t.Errorf("-n x: %+v", got)
	}
	ps = loaded(root, project.Project{}, project.Project{})
	if got := duplicates(t, root, ps, Options{Rules: map[string]RuleSetting{duplicateRule: {Off: true}}}); len(got) != 0 {
		t.Errorf("rule off: %+v", got)
	}
}

// A duplicate within a project is reported as before, once, also when the
// projects go to different places.
func TestCrossProjectDuplicateWithin(t *testing.T) {
	root := twoProjects(t, true)
	got := duplicates(t, root, loaded(root, project.Project{Namespace: "a"}, project.Project{Namespace: "b"}), Options{})
	if len(got) != 1 || got[0].File != filepath.Join(root, "b/copy.yaml") || strings.Contains(got[0].Message, "project a") {
		t.Errorf("within b: %+v", got)
	}
	// with one target: b's copy within b, and b's first copy against a
	got = duplicates(t, root, loaded(root, project.Project{}, project.Project{}), Options{})
	if len(got) != 2 {
		t.Errorf("within b and against a: %+v", got)
	}
}

// A project's kubeVersion is the version its objects are checked against.
func TestProjectKubeVersion(t *testing.T) {
	root := t.TempDir()
	dc := "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: x}\nspec: {}\n"
	for _, d := range []string{"old", "new"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, d, "dc.yaml"), []byte(strings.Replace(dc, "x", d, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ps := []project.Project{
		{Name: "old", Path: "old", Kind: project.Manifests, Files: []string{"old/dc.yaml"}, KubeVersion: "1.33"},
		{Name: "new", Path: "new", Kind: project.Manifests, Files: []string{"new/dc.yaml"}},
	}
	rep, _, err := Check(Input{Projects: ps, ProjectRoot: root}, Options{KubeVersion: "1.37"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Findings) != 1 || rep.Findings[0].Rule != "unknown-api" || rep.Findings[0].File != filepath.Join(root, "old/dc.yaml") {
		t.Errorf("findings: %+v", rep.Findings)
	}
}
