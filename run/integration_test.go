package run_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/run"
	"github.com/kubeplan/kubeplan/workspace"
)

func TestMain(m *testing.M) { testkube.Main(m) }

// repo writes a repository: a platform project creating a CRD and a
// namespace, an app that uses both and depends on it, a broken project
// and one that depends on the broken one, and an independent one.
func repo(t *testing.T, group, appNS, ownNS string) string {
	root := t.TempDir()
	files := map[string]string{
		"platform/crds/backup.yaml": fmt.Sprintf(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: backups.%[1]s
spec:
  group: %[1]s
  names: {kind: Backup, listKind: BackupList, plural: backups, singular: backup}
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                schedule: {type: string}
`, group),
		"platform/crds/namespace.yaml":         fmt.Sprintf("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: %s\n", appNS),
		"apps/db/kustomization.yaml":           fmt.Sprintf("namespace: %s\nresources:\n  - settings.yaml\n  - backup.yaml\n", appNS),
		"apps/db/settings.yaml":                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: db-settings\ndata:\n  max_connections: \"100\"\n",
		"apps/db/backup.yaml":                  fmt.Sprintf("apiVersion: %s/v1\nkind: Backup\nmetadata:\n  name: nightly\nspec:\n  schedule: \"0 3 * * *\"\n", group),
		"apps/broken/kustomization.yaml":       "resources:\n  - missing.yaml\n",
		"apps/after-broken/kustomization.yaml": "resources:\n  - cm.yaml\n",
		"apps/after-broken/cm.yaml":            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: after\n",
		"apps/own/kustomization.yaml":          fmt.Sprintf("namespace: %s\nresources:\n  - cm.yaml\n", ownNS),
		"apps/own/cm.yaml":                     "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: own\ndata:\n  a: b\n",
	}
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func options(t *testing.T, root, kubeconfig string) run.Options {
	return run.Options{
		Workspace: workspace.New(nil, workspace.Options{Root: root,
			Overrides: workspace.Overrides{CRDs: []string{filepath.Join(root, "platform", "crds")}}}),
		Connect: func(p project.Project) (*kube.Client, string, error) {
			f := kube.Flags()
			f.KubeConfig = &kubeconfig
			c, err := kube.Connect(f)
			return c, "test", err
		},
	}
}

// done is an Observer told only of each project's end.
type done func(run.ProjectReport)

func (done) Loaded([]*manifest.Object)          {}
func (done) Started(project.Project)            {}
func (f done) ProjectDone(pr run.ProjectReport) { f(pr) }

func projects(t *testing.T, root, appNS, ownNS string) []project.Project {
	ps, err := project.Discover(root)
	if err != nil {
		t.Fatal(err)
	}
	settings := map[string]project.Project{
		"platform-crds":     {Namespace: ownNS},
		"apps-db":           {Namespace: appNS, DependsOn: []string{"platform-crds"}},
		"apps-broken":       {Namespace: ownNS},
		"apps-after-broken": {Namespace: ownNS, DependsOn: []string{"apps-broken"}},
		"apps-own":          {Namespace: ownNS},
	}
	for i, p := range ps {
		s, ok := settings[p.Name]
		if !ok {
			t.Fatalf("unexpected project %s", p.Name)
		}
		ps[i].Namespace, ps[i].DependsOn, ps[i].ApplySet = s.Namespace, s.DependsOn, "configmap/set-"+p.Name
	}
	return ps
}

func byName(r *run.Report) map[string]run.ProjectReport {
	out := map[string]run.ProjectReport{}
	for _, p := range r.Projects {
		out[p.Project.Name] = p
	}
	return out
}

// TestIntegrationRunDependsOn plans and applies projects that depend on
// each other on the real API server: what a dependency creates (a CRD, a
// namespace) is planned as created after it, a failing project's
// dependents are skipped, the others go on, and a second run is a no-op.
func TestIntegrationRunDependsOn(t *testing.T) {
	c, appNS, backups, ps, o := dependsOnRepo(t)
	ctx := context.Background()

	r, err := run.Plan(ctx, ps, o)
	if err != nil {
		t.Fatal(err)
	}
	got := byName(r)
	if p := got["platform-crds"]; p.Status != run.Changes || p.Plan.Summary().Add != 2 {
		t.Fatalf("platform-crds: %s %s %+v", p.Status, p.Error, p.Plan)
	}
	db := got["apps-db"]
	if db.Status != run.Changes {
		t.Fatalf("apps-db: %s %s", db.Status, db.Error)
	}
	// What each object waits for is named: the ConfigMap only the
	// Namespace platform-crds creates, the Backup its CRD too.
	waits := map[string]string{"ConfigMap": "Namespace " + appNS, "Backup": "its CustomResourceDefinition and Namespace " + appNS}
	for _, ch := range db.Plan.Changes {
		if !ch.AfterCRD {
			t.Errorf("apps-db: %s is not planned as created after its dependency: %+v", ch.Ref, ch)
		}
		if ch.WaitsFor != waits[ch.Ref.Kind] {
			t.Errorf("apps-db: %s waits for %q, want %q", ch.Ref, ch.WaitsFor, waits[ch.Ref.Kind])
		}
	}
	if p := got["apps-broken"]; p.Status != run.Failed || len(p.Findings) != 1 || !strings.Contains(p.Findings[0].Message, "missing.yaml") {
		t.Errorf("apps-broken: %s %q %+v", p.Status, p.Error, p.Findings)
	}
	if p := got["apps-after-broken"]; p.Status != run.Skipped || !strings.Contains(p.Error, "apps-broken") {
		t.Errorf("apps-after-broken: %s %q", p.Status, p.Error)
	}
	if p := got["apps-own"]; p.Status != run.Changes || p.Plan.Summary().Add != 1 {
		t.Errorf("apps-own: %s %q", p.Status, p.Error)
	}
	if tot := r.Total(); tot.Failed != 1 || tot.Skipped != 1 || tot.WithChanges != 3 || tot.Add != 5 {
		t.Errorf("total: %+v", tot)
	}

	ar, err := run.Apply(ctx, ps, run.ApplyOptions{Options: o, Apply: apply.Options{Version: "test"}})
	if err != nil {
		t.Fatal(err)
	}
	got = byName(ar)
	for _, name := range []string{"platform-crds", "apps-db", "apps-own"} {
		if p := got[name]; p.Status != run.Applied || p.Result == nil || !p.Result.Wrote() {
			t.Errorf("%s: %s %q", name, p.Status, p.Error)
		}
	}
	if p := got["apps-after-broken"]; p.Status != run.Skipped {
		t.Errorf("apps-after-broken: %s", p.Status)
	}
	out := c.Kubectl(t, "get", backups, "nightly", "-n", appNS, "-o", "jsonpath={.spec.schedule}")
	if out != "0 3 * * *" {
		t.Errorf("the Backup was not created: %q", out)
	}

	again, err := run.Plan(ctx, ps, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range again.Projects {
		if p.Status == run.Changes {
			t.Errorf("%s still has changes after apply: %s", p.Project.Name, p.Plan.Summary())
		}
	}

	// A project that breaks after it was applied is recorded as failed on
	// its parent; the others still apply.
	if err := os.WriteFile(filepath.Join(o.Workspace.Root(), "apps", "own", "cm.yaml"), []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: own\ndata:\n  a: [1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if ar, err = run.Apply(ctx, ps, run.ApplyOptions{Options: o, Apply: apply.Options{Version: "test"}}); err != nil {
		t.Fatal(err)
	}
	if p := byName(ar)["apps-own"]; p.Status != run.Failed || len(p.Findings) == 0 {
		t.Errorf("apps-own after breaking it: %s %q", p.Status, p.Error)
	}
	if p := byName(ar)["apps-db"]; p.Status != run.Applied {
		t.Errorf("apps-db beside a broken project: %s %q", p.Status, p.Error)
	}
	st := byName(run.ReadStatus(ctx, ps, o.Connect, 0, nil))
	if p := st["apps-db"]; p.Status != run.Applied || p.Health == nil || len(p.Health.Members) != 2 {
		t.Errorf("status of apps-db: %s %q %+v", p.Status, p.Error, p.Health)
	}
	if p := st["apps-own"]; p.Status != run.Failed || !strings.Contains(p.Error, "lint found") {
		t.Errorf("status of apps-own: %s %q", p.Status, p.Error)
	}
	if p := st["apps-broken"]; p.Status != run.Failed {
		t.Errorf("status of apps-broken (never applied): %s", p.Status)
	}
}

// TestIntegrationRunStream applies projects one by one (ApplyOptions.
// Stream, kubeplan serve's mode): a project is planned after the projects
// it depends on were applied (the CRD and namespace they create exist by
// then), Done sees each plan and result once, the report keeps only
// statuses, and a second run writes nothing.
func TestIntegrationRunStream(t *testing.T) {
	c, appNS, backups, ps, o := dependsOnRepo(t)
	ctx := context.Background()

	apply1 := func() (map[string]run.ProjectReport, *run.Report) {
		t.Helper()
		seen := map[string]run.ProjectReport{}
		o.Observer = done(func(pr run.ProjectReport) {
			if _, dup := seen[pr.Project.Name]; dup {
				t.Errorf("Done called twice for %s", pr.Project.Name)
			}
			seen[pr.Project.Name] = pr
		})
		r, err := run.Apply(ctx, ps, run.ApplyOptions{Options: o, Apply: apply.Options{Version: "test"}, Stream: true})
		if err != nil {
			t.Fatal(err)
		}
		return seen, r
	}
	seen, r := apply1()
	for _, name := range []string{"platform-crds", "apps-db", "apps-own"} {
		if p := seen[name]; p.Status != run.Applied || p.Plan == nil || !p.Result.Wrote() {
			t.Errorf("%s: %s %q", name, p.Status, p.Error)
		}
	}
	if p := seen["apps-broken"]; p.Status != run.Failed || len(p.Findings) == 0 {
		t.Errorf("apps-broken: %s %q", p.Status, p.Error)
	}
	if p := seen["apps-after-broken"]; p.Status != run.Skipped {
		t.Errorf("apps-after-broken: %s", p.Status)
	}
	for _, p := range r.Projects {
		if p.Plan != nil || p.Result != nil {
			t.Errorf("%s: the report still holds its plan or result", p.Project.Name)
		}
	}
	if out := c.Kubectl(t, "get", backups, "nightly", "-n", appNS, "-o", "jsonpath={.spec.schedule}"); out != "0 3 * * *" {
		t.Errorf("the Backup was not created: %q", out)
	}
	seen, _ = apply1()
	for _, name := range []string{"platform-crds", "apps-db", "apps-own"} {
		if p := seen[name]; p.Status != run.Applied || p.Result.Wrote() {
			t.Errorf("second run of %s: %s %q wrote=%v", name, p.Status, p.Error, p.Result.Wrote())
		}
	}
}

// dependsOnRepo is the repository of the dependsOn tests on the shared
// cluster: its projects, the namespace the app project creates, and the
// run options, and the resource of the CRD it creates; the namespace and
// CRD are deleted at the end.
func dependsOnRepo(t *testing.T) (c *testkube.Cluster, appNS, backups string, ps []project.Project, o run.Options) {
	testkube.Integration(t)
	c = testkube.Shared(t)
	ownNS := c.Namespace(t)
	appNS = ownNS + "-app"
	group := strings.ReplaceAll(ownNS, "-", "") + ".example.com"
	t.Cleanup(func() {
		_, _ = c.TryKubectl("delete", "namespace", appNS, "--wait=false")
		_, _ = c.TryKubectl("delete", "crd", "backups."+group, "--wait=false")
	})
	root := repo(t, group, appNS, ownNS)
	return c, appNS, "backups." + group, projects(t, root, appNS, ownNS), options(t, root, c.AdminKubeconfig())
}
