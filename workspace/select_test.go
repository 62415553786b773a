package workspace

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/project"
)

// repo is a repository with three declared projects: web depends on
// platform, whose CRDs validate web's custom resources.
func repo(t *testing.T) string {
	return write(t, map[string]string{
		"kubeplan.yaml": `projects:
  - path: platform
    namespace: platform
  - path: apps/web
    namespace: web
    dependsOn: [platform]
    kubeVersion: "1.34"
  - path: apps/api
    namespace: api
`,
		"platform/crd.yaml":               "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: p\n",
		"apps/web/kustomization.yaml":     "resources: [cm.yaml]\n",
		"apps/web/cm.yaml":                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n",
		"apps/api/kustomization.yaml":     "resources: [cm.yaml]\n",
		"apps/api/cm.yaml":                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: api\n",
		"apps/ignored/kustomization.yaml": "resources: []\n",
	})
}

// --project keeps the named projects in path order; a name that is no
// project is an error listing the projects there are.
func TestSelectByName(t *testing.T) {
	dir := repo(t)
	ws, err := Open(Options{From: dir, Root: dir, Overrides: Overrides{Projects: []string{"platform", "apps-web"}}})
	if err != nil {
		t.Fatal(err)
	}
	ps, all, err := ws.Select()
	if err != nil {
		t.Fatal(err)
	}
	var got, known []string
	for _, p := range ps {
		got = append(got, p.Name)
	}
	for _, p := range all {
		known = append(known, p.Name)
	}
	if !slices.Equal(got, []string{"apps-web", "platform"}) || len(known) != 3 {
		t.Errorf("selected %q of %q", got, known)
	}
	ws, err = Open(Options{From: dir, Root: dir, Overrides: Overrides{Projects: []string{"nope", "platform"}}})
	if err != nil {
		t.Fatal(err)
	}
	ps, _, err = ws.Select()
	var unknown *UnknownProjectsError
	if !errors.As(err, &unknown) || !slices.Equal(unknown.Missing, []string{"nope"}) ||
		!strings.Contains(err.Error(), "--project nope: no such project (kubeplan projects lists them: apps-api, apps-web, platform)") {
		t.Errorf("unknown name: %v", err)
	}
	if len(ps) != 1 || ps[0].Name != "platform" {
		t.Errorf("the projects found are not returned with the error: %v", ps)
	}
}

// A project's lint settings: what it reads, its dependencies' paths as
// CRDs, its own kubeVersion over the workspace's, its namespace; lint's
// --kube-version clears the projects' own (ForLint).
func TestProjectLint(t *testing.T) {
	dir := repo(t)
	ws, err := Open(Options{From: dir, Root: dir, Overrides: Overrides{KubeVersion: ptr("1.36")}})
	if err != nil {
		t.Fatal(err)
	}
	all, err := ws.Projects()
	if err != nil {
		t.Fatal(err)
	}
	web := all[slices.IndexFunc(all, func(p project.Project) bool { return p.Name == "apps-web" })]
	li, lo, err := ws.ProjectLint(web, Set{Namespace: "web"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(li.Paths, []string{filepath.Join(dir, "apps", "web")}) {
		t.Errorf("Paths = %q", li.Paths)
	}
	if !slices.Equal(li.CRDPaths, []string{filepath.Join(dir, "platform", "crd.yaml")}) {
		t.Errorf("CRDPaths = %q, want platform's files", li.CRDPaths)
	}
	if lo.KubeVersion != "1.34" || lo.Namespace != "web" || !strings.Contains(lo.NamespaceFrom, "apps-web") {
		t.Errorf("options: version %q namespace %q (%s)", lo.KubeVersion, lo.Namespace, lo.NamespaceFrom)
	}
	ps, crds, err := ws.ForLint([]project.Project{web})
	if err != nil {
		t.Fatal(err)
	}
	if ps[0].KubeVersion != "" || len(crds) != 1 {
		t.Errorf("ForLint: version %q, crds %q", ps[0].KubeVersion, crds)
	}
}
