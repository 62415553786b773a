package render

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/orphans"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/run"
)

var orphansNow = time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)

func orphansFixture(single bool) *run.OrphansReport {
	found := &orphans.Result{Namespaces: []string{"shop"}, Lists: 29,
		Objects: []orphans.Object{
			{Version: "v1", Kind: "ConfigMap", Resource: "configmaps", Namespace: "shop", Name: "hotfix", Created: orphansNow.Add(-72 * time.Hour), LastManager: "kubectl-create"},
			{Group: "apps", Version: "v1", Kind: "Deployment", Resource: "deployments", Namespace: "shop", Name: "debug", Created: orphansNow.Add(-2 * time.Hour)},
		},
		NotChecked: []orphans.NotChecked{
			{Group: "rbac.authorization.k8s.io", Resource: "roles", Namespace: "shop", Reason: "forbidden"},
			{Group: "rbac.authorization.k8s.io", Resource: "rolebindings", Namespace: "shop", Reason: "forbidden"},
		}}
	r := &run.OrphansReport{Report: &run.Report{Version: 1, Single: single, Projects: []run.ProjectReport{
		{Project: project.Project{Name: "shop"}, Cluster: "prod", Namespace: "shop", ApplySet: "configmap/kubeplan-shop"},
	}}, Found: []*orphans.Result{found}}
	if !single {
		err := errors.New("cluster prod-eu: connection refused")
		r.Projects = append(r.Projects, run.ProjectReport{Project: project.Project{Name: "cache"}, Status: run.Failed, Error: err.Error(), Err: err})
		r.Found = append(r.Found, nil)
		r.Projects = append(r.Projects, run.ProjectReport{Project: project.Project{Name: "queue"}, Status: run.Skipped, Error: "skipped: the run was stopped before it started"})
		r.Found = append(r.Found, nil)
	}
	return r
}

func TestOrphansTextSingle(t *testing.T) {
	var b strings.Builder
	if err := Orphans(&b, "text", orphansFixture(true), orphansNow); err != nil {
		t.Fatal(err)
	}
	want := `NAMESPACE  OBJECT                 AGE   LAST MANAGER
shop       configmap/hotfix       3d    kubectl-create
shop       deployment.apps/debug  120m  -

2 objects nobody manages in namespace shop.
Not checked in shop (forbidden): roles.rbac.authorization.k8s.io, rolebindings.rbac.authorization.k8s.io
`
	got := b.String()
	if got != want {
		t.Errorf("text:\n%s\nwant:\n%s", got, want)
	}
	if strings.Contains(got, "PROJECT") {
		t.Errorf("a plain invocation has no PROJECT column:\n%s", got)
	}
}

func TestOrphansTextProjects(t *testing.T) {
	var b strings.Builder
	if err := Orphans(&b, "text", orphansFixture(false), orphansNow); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	for _, line := range []string{
		"PROJECT  NAMESPACE  OBJECT                 AGE   LAST MANAGER\n",
		"shop     shop       configmap/hotfix       3d    kubectl-create\n",
		"shop: Not checked in shop (forbidden): roles.rbac.authorization.k8s.io, rolebindings.rbac.authorization.k8s.io\n",
		"cache: failed: cluster prod-eu: connection refused\n",
		"queue: skipped: the run was stopped before it started\n",
	} {
		if !strings.Contains(got, line) {
			t.Errorf("text lacks %q:\n%s", line, got)
		}
	}
}

func TestOrphansTextNone(t *testing.T) {
	r := orphansFixture(true)
	r.Found[0].Objects, r.Found[0].NotChecked, r.Found[0].Namespaces = nil, nil, []string{"shop", "shop-jobs"}
	var b strings.Builder
	if err := Orphans(&b, "text", r, orphansNow); err != nil {
		t.Fatal(err)
	}
	if got, want := b.String(), "No unmanaged objects in namespaces shop, shop-jobs.\n"; got != want {
		t.Errorf("text = %q, want %q", got, want)
	}
}

func TestOrphansJSON(t *testing.T) {
	var b strings.Builder
	if err := Orphans(&b, "json", orphansFixture(false), orphansNow); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Version  int `json:"version"`
		Projects []struct {
			Project    string           `json:"project"`
			ApplySet   string           `json:"applyset"`
			Namespaces []string         `json:"namespaces"`
			Orphans    []map[string]any `json:"orphans"`
			NotChecked []map[string]any `json:"notChecked"`
			Error      string           `json:"error"`
		} `json:"projects"`
		Total map[string]int `json:"total"`
	}
	if err := json.Unmarshal([]byte(b.String()), &doc); err != nil {
		t.Fatalf("%v:\n%s", err, b.String())
	}
	if doc.Version != OrphansFormatVersion || len(doc.Projects) != 3 {
		t.Fatalf("doc = %+v", doc)
	}
	p := doc.Projects[0]
	if p.Project != "shop" || p.ApplySet != "configmap/kubeplan-shop" || len(p.Orphans) != 2 || len(p.NotChecked) != 2 {
		t.Errorf("project = %+v", p)
	}
	o := p.Orphans[1]
	if o["group"] != "apps" || o["kind"] != "Deployment" || o["name"] != "debug" || o["created"] != "2026-12-02T10:00:00Z" {
		t.Errorf("orphan = %v", o)
	}
	if doc.Projects[1].Error == "" || doc.Projects[1].Orphans != nil {
		t.Errorf("a failed project = %+v", doc.Projects[1])
	}
	if doc.Total["orphans"] != 2 || doc.Total["failed"] != 2 || doc.Total["projects"] != 3 {
		t.Errorf("total = %v", doc.Total)
	}
}

func TestOrphansJSONNoneIsAnEmptyArray(t *testing.T) {
	r := orphansFixture(true)
	r.Found[0].Objects = nil
	var b strings.Builder
	if err := Orphans(&b, "json", r, orphansNow); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"orphans": []`) {
		t.Errorf("no orphans is not an empty array:\n%s", b.String())
	}
}
