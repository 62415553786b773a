package run_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"k8s.io/client-go/tools/clientcmd"

	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/run"
	"github.com/kubeplan/kubeplan/workspace"
)

// paths records the path of every request a client makes.
type paths struct {
	mu  sync.Mutex
	all []string
}

func (p *paths) wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTrip(func(r *http.Request) (*http.Response, error) {
		p.mu.Lock()
		p.all = append(p.all, r.Method+" "+r.URL.Path)
		p.mu.Unlock()
		return rt.RoundTrip(r)
	})
}

// setReads are the reads of a set's state in ns, project by project: a
// LIST of a kind there, a GET of the Namespace or of a parent (set-*).
// Reads and dry-runs of single objects of the set are not among them.
func (p *paths) setReads(ns string) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for _, s := range p.all {
		method, path, _ := strings.Cut(s, " ")
		_, rest, found := strings.Cut(path, "/namespaces/"+ns)
		switch {
		case !found || method != http.MethodGet:
		case rest == "", strings.Count(rest, "/") == 1, strings.Contains(rest, "/set-"):
			out = append(out, s)
		}
	}
	return out
}

type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestIntegrationPlanReadAhead: a plan of several projects on one cluster
// reads their parents, members, Namespaces and autoscalers with LISTs
// across namespaces (plan.ReadAhead), not project by project, and every
// project's plan is the same as when it is planned alone: a changed
// ConfigMap, a member deleted by hand (to create again), an autoscaled
// Deployment whose replicas are left alone, a project never applied. An
// identity that may not list across
// namespaces (edit in each) gets the same plans, read project by project.
func TestIntegrationPlanReadAhead(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	nss := []string{c.Namespace(t), c.Namespace(t), c.Namespace(t)}
	root := t.TempDir()
	write := func(name, body string) {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i := range nss {
		name := fmt.Sprintf("app%d", i)
		write(name+"/kustomization.yaml", "resources: [app.yaml]\n")
		write(name+"/app.yaml", fmt.Sprintf(`apiVersion: v1
kind: ConfigMap
metadata: {name: settings}
data: {level: "1"}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: extra}
data: {a: b}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: registry.example.com/web:%d}]
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 2
  maxReplicas: 5
  metrics: [{type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 80}}}]
`, i))
	}
	// Another set in app0's namespace, and a project never applied: its
	// parent does not exist.
	write("side/kustomization.yaml", "resources: [cm.yaml]\n")
	write("side/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: side}\n")
	write("new/kustomization.yaml", "resources: [cm.yaml]\n")
	write("new/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: fresh}\n")
	ps, err := project.Discover(root)
	if err != nil || len(ps) != 5 {
		t.Fatalf("projects: %v %+v", err, ps)
	}
	for i := range ps {
		ns := nss[0]
		if n, ok := strings.CutPrefix(ps[i].Name, "app"); ok {
			ns = nss[n[0]-'0']
		}
		ps[i].Namespace, ps[i].ApplySet = ns, "configmap/set-"+ps[i].Name
	}

	options := func(kubeconfig string, rec *paths) run.Options {
		return run.Options{
			Workspace: workspace.New(nil, workspace.Options{Root: root}),
			Connect: func(project.Project) (*kube.Client, string, error) {
				cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
				if err != nil {
					return nil, "", err
				}
				cfg.WrapTransport = rec.wrap
				cl, err := kube.NewForConfig(cfg, "default")
				return cl, "test", err
			},
			Plan: plan.Options{FieldManager: "kubeplan"},
		}
	}
	ctx := context.Background()
	var applied []project.Project
	for _, p := range ps {
		if p.Name != "new" {
			applied = append(applied, p)
		}
	}
	r, err := run.Apply(ctx, applied, run.ApplyOptions{Options: options(c.AdminKubeconfig(), &paths{})})
	if err != nil || r.Failed() {
		t.Fatalf("applying: %v %+v", err, r)
	}
	write("app0/app.yaml", strings.Replace(readFile(t, filepath.Join(root, "app0/app.yaml")), `level: "1"`, `level: "2"`, 1))
	c.Kubectl(t, "-n", nss[1], "delete", "configmap", "extra")
	c.Kubectl(t, "-n", nss[2], "scale", "deployment", "web", "--replicas=4")

	// Each project alone: no read-ahead.
	alone := map[string]string{}
	for _, p := range ps {
		r, err := run.Plan(ctx, []project.Project{p}, options(c.AdminKubeconfig(), &paths{}))
		if err != nil {
			t.Fatal(err)
		}
		alone[p.Name] = planJSON(t, r.Projects[0])
	}
	for name, want := range map[string]string{"app0": `"action":"update"`, "app1": `"action":"create"`, "new": `"action":"create"`} {
		if !strings.Contains(alone[name], want) {
			t.Fatalf("%s alone: no %s in %s", name, want, alone[name])
		}
	}

	edit := c.User(t, "readahead-"+nss[0])
	for _, ns := range nss {
		c.Kubectl(t, "-n", ns, "create", "rolebinding", "readahead", "--clusterrole=edit", "--user=readahead-"+nss[0])
	}
	for _, tc := range []struct {
		name       string
		kubeconfig string
		ahead      bool
	}{{"admin", c.AdminKubeconfig(), true}, {"edit in each namespace", edit, false}} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &paths{}
			r, err := run.Plan(ctx, ps, options(tc.kubeconfig, rec))
			if err != nil {
				t.Fatal(err)
			}
			for _, pr := range r.Projects {
				if pr.Error != "" {
					t.Fatalf("%s: %s", pr.Project.Name, pr.Error)
				}
				if got := planJSON(t, pr); got != alone[pr.Project.Name] {
					t.Errorf("%s planned with the others:\n%s\nalone:\n%s", pr.Project.Name, got, alone[pr.Project.Name])
				}
			}
			// One review says the admin may do everything, for every
			// project; the edit identity's rules are read per namespace.
			reviews := map[string]int{}
			rec.mu.Lock()
			for _, s := range rec.all {
				if strings.HasSuffix(s, "reviews") {
					reviews[s[strings.LastIndex(s, "/")+1:]]++
				}
			}
			rec.mu.Unlock()
			if tc.ahead && (reviews["selfsubjectrulesreviews"] != 0 || reviews["selfsubjectaccessreviews"] != 1) {
				t.Errorf("admin's permission reviews: %v, want the one access review", reviews)
			}
			if !tc.ahead && reviews["selfsubjectrulesreviews"] < len(nss) {
				t.Errorf("edit identity's permission reviews: %v, want its rules in each namespace", reviews)
			}
			for _, ns := range nss {
				in := rec.setReads(ns)
				if tc.ahead && len(in) != 0 {
					t.Errorf("reads project by project in %s: %q", ns, in)
				}
				if !tc.ahead && len(in) == 0 {
					t.Errorf("the edit identity read nothing in %s: was it given what it may not list?", ns)
				}
			}
		})
	}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// planJSON is a project's changes as JSON, without what differs from run
// to run.
func planJSON(t *testing.T, pr run.ProjectReport) string {
	t.Helper()
	if pr.Plan == nil {
		t.Fatalf("%s: no plan: %s", pr.Project.Name, pr.Error)
	}
	type change struct {
		Ref    string
		Action string `json:"action"`
		Diff   string
		Drift  int
	}
	var cs []change
	for _, ch := range pr.Plan.Changes {
		cs = append(cs, change{ch.Ref.String(), string(ch.Action), ch.Diff, len(ch.Drift)})
	}
	b, err := json.Marshal(struct {
		Changes []change
		Summary string
	}{cs, fmt.Sprint(pr.Plan.Summary())})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
