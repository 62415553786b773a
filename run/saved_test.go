package run

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/project"
)

func TestSaveDirLoadFiles(t *testing.T) {
	secret := map[string]any{"apiVersion": "v1", "kind": "Secret", "metadata": map[string]any{"name": "db"}, "stringData": map[string]any{"password": "hunter2-very-secret"}}
	dev := &Report{Version: FormatVersion, Projects: []ProjectReport{
		{Project: project.Project{Name: "web-dev", Path: "apps/web/overlays/dev"}, Cluster: "dev", Namespace: "shop-dev", Status: Changes,
			Plan: &plan.Plan{Namespace: "shop-dev", Changes: []plan.Change{{Ref: plan.Ref{Version: "v1", Kind: "Secret", Name: "db"}, Action: plan.Create, Diff: "+password: '***'", Object: secret}}}},
		{Project: project.Project{Name: "api-dev", Path: "apps/api/overlays/dev"}, Cluster: "dev", Status: Failed, Error: "lint found 1 error(s)"},
	}}
	prod := &Report{Version: FormatVersion, Projects: []ProjectReport{
		{Project: project.Project{Name: "web-prod", Path: "apps/web/overlays/prod"}, Cluster: "prod", Status: NoChanges, Plan: &plan.Plan{}},
	}}
	dir := t.TempDir()
	// as actions/download-artifact lays out several artifacts
	if err := SaveDir(filepath.Join(dir, "plans-dev"), dev); err != nil {
		t.Fatal(err)
	}
	if err := SaveDir(filepath.Join(dir, "plans-prod"), prod); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "plans-dev", "web-dev.kubeplan.json"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "hunter2") {
		t.Fatal("a project plan file holds a Secret value")
	}
	if dev.Projects[0].Plan.Changes[0].Object == nil {
		t.Fatal("SaveDir changed the report it saved")
	}
	r, err := LoadFiles([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range r.Projects {
		names = append(names, p.Project.Name+":"+string(p.Status))
	}
	if got := strings.Join(names, " "); got != "api-dev:failed web-dev:changes web-prod:no-changes" {
		t.Errorf("merged: %s", got)
	}
	if tot := r.Total(); tot.Failed != 1 || tot.Add != 1 {
		t.Errorf("total %+v", tot)
	}
	if _, err := LoadFiles([]string{dir, filepath.Join(dir, "plans-prod")}); err == nil || !strings.Contains(err.Error(), "web-prod on cluster prod is also in") {
		t.Errorf("a project given twice: %v", err)
	}
	if _, err := LoadFiles([]string{t.TempDir()}); err == nil || !strings.Contains(err.Error(), "holds no project plans") {
		t.Errorf("an empty directory: %v", err)
	}
	bad := filepath.Join(dir, "x.kubeplan.json")
	_ = os.WriteFile(bad, []byte(`{"kind":"KubeplanProjectPlan","version":99}`), 0o644)
	if _, err := LoadFiles([]string{bad}); err == nil || !strings.Contains(err.Error(), "version 99") {
		t.Errorf("a newer file: %v", err)
	}
}
