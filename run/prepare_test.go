package run

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericclioptions"

	"github.com/kubeplan/kubeplan/internal/config"
	"github.com/kubeplan/kubeplan/internal/guard"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/source"
	"github.com/kubeplan/kubeplan/workspace"
)

// writeTree writes files under a new directory.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// kubeconfig is a kubeconfig of a server nobody listens on, namespace
// shop: Connect and Prepare make no request.
func kubeconfig(t *testing.T) *genericclioptions.ConfigFlags {
	t.Helper()
	dir := writeTree(t, map[string]string{"kubeconfig": `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: dev, context: {cluster: c, user: u, namespace: shop}}]
current-context: dev
`})
	f := kube.Flags()
	kc := filepath.Join(dir, "kubeconfig")
	f.KubeConfig = &kc
	return f
}

type checked struct{ n int }

func (c *checked) Checked(*source.Revision) { c.n++ }

func open(wo workspace.Options) (*workspace.Workspace, error) { return workspace.Open(wo) }

// A plain invocation: Connect makes the client and parses --applyset in
// its namespace; Prepare opens the workspace of the one project the
// flags make, in that namespace, against that ApplySet.
func TestPrepareSingle(t *testing.T) {
	dir := writeTree(t, map[string]string{"app/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n"})
	seen := &checked{}
	q := Request{Paths: []string{filepath.Join(dir, "app")}, Kube: kubeconfig(t), ApplySet: "configmap/x", Open: open,
		Plan: plan.Options{FieldManager: "ci"}, Observer: seen}
	tg, err := Connect(q)
	if err != nil {
		t.Fatal(err)
	}
	if tg.Client.Namespace != "shop" || tg.Parent == nil || tg.Parent.String() != "configmap/x" || tg.Parent.Namespace != "shop" {
		t.Fatalf("target = %+v, parent %v", tg, tg.Parent)
	}
	p, err := tg.Prepare(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	o := p.Options
	if len(p.Projects) != 1 || p.Projects[0].ApplySet != "configmap/x" || !o.Single || !o.Lookup || o.Workspace == nil || o.Saved != nil ||
		o.Plan.Namespace != "shop" || o.Plan.ApplySet != tg.Parent || o.Plan.FieldManager != "ci" || seen.n != 0 {
		t.Fatalf("prepared = %+v", p)
	}
	if c, _, err := o.Connect(project.Project{}); err != nil || c != tg.Client {
		t.Fatal("a plain invocation's connector is not its client")
	}
	if _, err := Connect(Request{Kube: q.Kube, ApplySet: "deployment/x"}); err == nil {
		t.Fatal("an ApplySet that is no ConfigMap or Secret was taken")
	}
}

// apply PLANFILE: a single path holding a saved plan is the run; no
// manifest is read (only kubeplan.yaml, for the guard rules the plan is
// judged by again: the built-in ones without it), and a path that is no
// plan is read as manifests.
func TestPrepareSaved(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "tfplan")
	if err := plan.Save(file, &plan.Plan{Version: plan.FormatVersion, Namespace: "shop"}); err != nil {
		t.Fatal(err)
	}
	tg, err := Connect(Request{Paths: []string{file}, Kube: kubeconfig(t), SavedPlan: true,
		Open: func(workspace.Options) (*workspace.Workspace, error) {
			return workspace.New(&config.Config{}, workspace.Options{}), nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	p, err := tg.Prepare(context.Background())
	if err != nil || p.Options.Saved == nil || p.Options.Workspace != nil || p.Revision != nil {
		t.Fatalf("saved plan: %+v, %v", p, err)
	}
	if g := p.Projects[0].Guards; g == nil || !g.Has(guard.ProtectPVC) {
		t.Fatalf("the saved plan's project has not the built-in guard rules: %v", g)
	}
	broken, err := Connect(Request{Paths: []string{file}, Kube: kubeconfig(t), SavedPlan: true,
		Open: func(workspace.Options) (*workspace.Workspace, error) {
			return nil, errors.New("kubeplan.yaml:3:5: bad rule")
		}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := broken.Prepare(context.Background()); err == nil || !strings.Contains(err.Error(), "bad rule") {
		t.Fatalf("a saved plan applied under a kubeplan.yaml that cannot be read: %v", err)
	}
	if err := os.WriteFile(file, []byte(`{"kind":"KubeplanPlan","version":99}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if p, err := tg.Prepare(context.Background()); err == nil || p == nil || !strings.Contains(err.Error(), "make the plan again") {
		t.Fatalf("a plan of an unknown version: %v", err)
	}
	broken.q.SavedPlan = false
	if _, err := broken.Prepare(context.Background()); err == nil || !strings.Contains(err.Error(), "bad rule") {
		t.Fatalf("without SavedPlan the file is read as manifests: %v", err)
	}
}

// Over projects Prepare selects among the workspace's projects, each
// connecting to its own cluster; a flag naming one set, several paths or
// a bad setting fail the run first.
func TestPrepareProjects(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"kubeplan.yaml":          "projects:\n  - path: web\n    namespace: web\n  - path: api\n    namespace: api\n",
		"web/kustomization.yaml": "resources: [cm.yaml]\n",
		"web/cm.yaml":            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n",
		"api/kustomization.yaml": "resources: [cm.yaml]\n",
		"api/cm.yaml":            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: api\n",
	})
	openAll := func(wo workspace.Options) (*workspace.Workspace, error) {
		wo.Overrides.All = true
		return workspace.Open(wo)
	}
	q := Request{Paths: []string{dir}, Projects: true, Open: openAll, Kube: kubeconfig(t), Plan: plan.Options{FieldManager: "ci"}}
	tg, err := Connect(q)
	if err != nil || tg.Client != nil {
		t.Fatalf("Connect over projects connected: %v", err)
	}
	p, err := tg.Prepare(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Projects) != 2 || p.Projects[0].Name != "api" || p.Options.Single || !p.Options.Lookup || p.Options.Plan.FieldManager != "ci" ||
		filepath.Base(p.ConfigFile) != "kubeplan.yaml" {
		t.Fatalf("prepared = %+v", p)
	}
	if _, _, err := p.Options.Connect(project.Project{ClusterName: "prod"}); err == nil || !strings.Contains(err.Error(), "prod") {
		t.Fatalf("a cluster the runner does not map was connected: %v", err)
	}
	refused := errors.New("--namespace names one set")
	for name, q := range map[string]Request{
		"refused":  {Paths: []string{dir}, Projects: true, Open: openAll, Refused: refused},
		"paths":    {Paths: []string{dir, dir}, Projects: true, Open: openAll},
		"clusters": {Paths: []string{dir}, Projects: true, Open: openAll, Clusters: []string{"=nothing"}},
	} {
		p, err := (&Target{q: q}).Prepare(context.Background())
		if err == nil || p.ConfigFile == "" || (name == "refused" && err != refused) {
			t.Errorf("%s: %v, config %q", name, err, p.ConfigFile)
		}
	}
}

// A run that could not start is recorded (here: no ApplySet, nothing to
// record on) and reported as the one project's failure.
func TestTargetFailed(t *testing.T) {
	err := errors.New("lint found 1 error(s)")
	r := (&Target{}).Failed(context.Background(), "kubeplan", err)
	if !r.Single || len(r.Projects) != 1 || r.Projects[0].Status != Failed || r.Projects[0].Error != err.Error() || !errors.Is(r.Projects[0].Err, err) {
		t.Fatalf("report = %+v", r)
	}
}

// Single is a plain invocation's report, or its project's error; a
// project an interrupt skipped fails with the interrupt.
func TestSingle(t *testing.T) {
	runErr := errors.New("dependsOn cycle")
	if _, err := Single(context.Background(), nil, runErr); err != runErr {
		t.Fatalf("run error = %v", err)
	}
	failed := errors.New("the server refused")
	r := &Report{Projects: []ProjectReport{{Status: Failed, Err: failed}}}
	if _, err := Single(context.Background(), r, nil); err != failed || !r.Single {
		t.Fatalf("failed project: %v", err)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	stop := errors.New("interrupted")
	cancel(stop)
	skipped := &Report{Projects: []ProjectReport{{Status: Skipped, Error: "not started"}}}
	if _, err := Single(ctx, skipped, nil); err != stop {
		t.Fatalf("skipped by an interrupt: %v", err)
	}
	if _, err := Single(context.Background(), skipped, nil); err == nil || err.Error() != "not started" {
		t.Fatalf("skipped: %v", err)
	}
	ok := &Report{Projects: []ProjectReport{{Status: NoChanges, Plan: &plan.Plan{}}}}
	if got, err := Single(context.Background(), ok, nil); err != nil || got != ok {
		t.Fatalf("planned: %v", err)
	}
}

// Save writes a plain invocation's plan as one file apply reads back, a
// run over projects as a directory; nothing without --out.
func TestSave(t *testing.T) {
	dir := t.TempDir()
	single := &Report{Single: true, Projects: []ProjectReport{{Status: NoChanges, Plan: &plan.Plan{Version: plan.FormatVersion, Namespace: "shop"}}}}
	if err := Save("", single); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "tfplan")
	if err := Save(file, single); err != nil {
		t.Fatal(err)
	}
	if pl, err := plan.Detect(file); err != nil || pl == nil || pl.Namespace != "shop" {
		t.Fatalf("the saved file is no plan: %v", err)
	}
	many := &Report{Version: FormatVersion, Projects: []ProjectReport{{Project: project.Project{Name: "web"}, Status: NoChanges, Plan: &plan.Plan{}}}}
	if err := Save(filepath.Join(dir, "plans"), many); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "plans", "web.kubeplan.json")); err != nil {
		t.Fatal(err)
	}
}
