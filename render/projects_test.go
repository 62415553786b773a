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
