package render

import (
	"bytes"
	"testing"

	"github.com/kubeplan/kubeplan/project"
)

func TestProjects(t *testing.T) {
	ps := []project.Project{
		{Name: "apps-web-prod", Path: "apps/web/prod", Kind: project.Kustomize, Files: []string{"apps/web/base/kustomization.yaml", "apps/web/prod/kustomization.yaml"}},
		{Name: "platform", Path: "platform", Kind: project.Manifests, Files: []string{"platform/ns.yaml"}},
	}
	var b bytes.Buffer
	if err := Projects(&b, "text", ps); err != nil {
		t.Fatal(err)
	}
	want := "NAME           KIND       PATH           FILES\n" +
		"apps-web-prod  kustomize  apps/web/prod  2\n" +
		"platform       manifests  platform       1\n"
	if b.String() != want {
		t.Errorf("text:\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	if err := Projects(&b, "json", nil); err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"version\": 1,\n  \"projects\": []\n}\n"; b.String() != want {
		t.Errorf("json:\n%s", b.String())
	}
	if err := Projects(&b, "sarif", ps); err == nil {
		t.Error("sarif accepted")
	}
}

// The settings columns appear when some project has them, "-" where one
// has not; the JSON carries the settings set and leaves out the others.
func TestProjectsSettings(t *testing.T) {
	ps := []project.Project{
		{Name: "crds", Path: "platform/crds", Kind: project.Manifests, Files: []string{"platform/crds/a.yaml"},
			ApplySet: "configmap/crds", ClusterName: "prod", ClusterAt: "kubeplan.yaml:3:12"},
		{Name: "web", Path: "web", Kind: project.Kustomize, Files: []string{"web/kustomization.yaml"},
			Namespace: "web", ApplySet: "configmap/kubeplan-web", DependsOn: []string{"crds", "db"}},
	}
	var b bytes.Buffer
	if err := Projects(&b, "text", ps); err != nil {
		t.Fatal(err)
	}
	want := "NAME  KIND       PATH           FILES  NAMESPACE  APPLYSET                CLUSTER  DEPENDS\n" +
		"crds  manifests  platform/crds  1      -          configmap/crds          prod     -\n" +
		"web   kustomize  web            1      web        configmap/kubeplan-web  -        crds,db\n"
	if b.String() != want {
		t.Errorf("text:\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	if err := Projects(&b, "json", ps[:1]); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{`"applyset": "configmap/crds"`, `"cluster": "prod"`} {
		if !bytes.Contains(b.Bytes(), []byte(s)) {
			t.Errorf("json lacks %s:\n%s", s, b.String())
		}
	}
	for _, s := range []string{`"namespace"`, `"dependsOn"`, `"kubeVersion"`, `"kubeplan.yaml:3:12"`} {
		if bytes.Contains(b.Bytes(), []byte(s)) {
			t.Errorf("json has the empty %s:\n%s", s, b.String())
		}
	}
}
