package render

import (
	"fmt"
	"strings"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/health"
	"github.com/kubeplan/kubeplan/lint"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/run"
)

// The fixtures of the run views: a shop with a web app and a database in
// production (changes, drift, a prune, a Secret), an API that failed lint,
// a worker skipped because it depends on the API, and a staging web app
// that is in sync.

func cmRef(ns, name string) plan.Ref {
	return plan.Ref{Version: "v1", Kind: "ConfigMap", Resource: "configmaps", Namespace: ns, Name: name}
}

func deployRef(ns, name string) plan.Ref {
	return plan.Ref{Group: "apps", Version: "v1", Kind: "Deployment", Resource: "deployments", Namespace: ns, Name: name}
}

func parentOf(ns, name string) *plan.Parent {
	return &plan.Parent{Ref: cmRef(ns, name), ID: "applyset-" + name + "-v1", Exists: true}
}

const canaryDiff = `--- /dev/null
+++ planned
@@ -0,0 +1,4 @@
+apiVersion: apps/v1
+kind: Deployment
+metadata:
+  name: web-canary
`

func webProdPlan() *plan.Plan {
	return &plan.Plan{Version: plan.FormatVersion, Namespace: "shop-prod", FieldManager: "kubeplan", Revision: "3f2c1e0",
		Parent: parentOf("shop-prod", "kubeplan-shop-web-prod"),
		Changes: []plan.Change{
			{Ref: deployRef("shop-prod", "web"), Action: plan.Update, Source: plan.Source{File: "shop/web/prod/deployment.yaml", Line: 1, Col: 1},
				Diff: webDiff, Drift: []plan.Drift{{Field: "spec.replicas", Live: "6", Want: "3", Manager: "kubectl-scale"}}},
			{Ref: deployRef("shop-prod", "web-canary"), Action: plan.Create, Source: plan.Source{File: "shop/web/prod/canary.yaml", Line: 1, Col: 1}, Diff: canaryDiff},
			{Ref: cmRef("shop-prod", "web-old"), Action: plan.Prune},
			{Ref: cmRef("shop-prod", "web-settings"), Action: plan.Unchanged, Source: plan.Source{File: "shop/web/base/settings.yaml", Line: 1, Col: 1}},
		}}
}

func dbProdPlan() *plan.Plan {
	return &plan.Plan{Version: plan.FormatVersion, Namespace: "shop-db", FieldManager: "kubeplan", Revision: "3f2c1e0",
		Parent: parentOf("shop-db", "kubeplan-shop-db-prod"),
		Changes: []plan.Change{
			{Ref: plan.Ref{Version: "v1", Kind: "Secret", Resource: "secrets", Namespace: "shop-db", Name: "db-credentials"},
				Action: plan.Create, Source: plan.Source{File: "shop/db/prod/secret.yaml", Line: 1, Col: 1}, Diff: strings.Replace(secretDiff, "store", "shop-db", 1),
				Object: map[string]any{"apiVersion": "v1", "kind": "Secret", "stringData": map[string]any{"password": "hunter2"}}},
			{Ref: cmRef("shop-db", "db-old"), Action: plan.Prune},
		}}
}

func stagingPlan() *plan.Plan {
	return &plan.Plan{Version: plan.FormatVersion, Namespace: "shop-staging", FieldManager: "kubeplan", Revision: "3f2c1e0",
		Parent: parentOf("shop-staging", "kubeplan-shop-web-staging"),
		Changes: []plan.Change{
			{Ref: deployRef("shop-staging", "web"), Action: plan.Unchanged, Source: plan.Source{File: "shop/web/staging/deployment.yaml", Line: 1, Col: 1}},
		}}
}

func runProject(name, path, cluster, ns string, st run.Status) run.ProjectReport {
	as := ""
	if st != run.Skipped {
		as = "configmap/kubeplan-" + name
	}
	return run.ProjectReport{Project: project.Project{Name: name, Path: path, Kind: project.Kustomize, Namespace: ns, ApplySet: as, ClusterName: cluster},
		Cluster: cluster, Namespace: ns, ApplySet: as, Status: st}
}

// runFixture is a planned run over five projects.
func runFixture() *run.Report {
	web := runProject("shop-web-prod", "shop/web/prod", "prod", "shop-prod", run.Changes)
	web.Plan = webProdPlan()
	db := runProject("shop-db-prod", "shop/db/prod", "prod", "shop-db", run.Changes)
	db.Plan = dbProdPlan()
	api := runProject("shop-api-prod", "shop/api/prod", "prod", "shop-prod", run.Failed)
	api.Error = "lint: 2 errors"
	api.Findings = []lint.Finding{
		{File: "shop/api/prod/deployment.yaml", Line: 12, Col: 9, Severity: lint.Error, Rule: "schema",
			Message: `spec.replicas: expected integer, got string "two"`, Object: "deployment.apps/api", Namespace: "shop-prod", Field: "spec.replicas"},
		{File: "shop/api/prod/service.yaml", Line: 3, Col: 1, Severity: lint.Error, Rule: "schema", Message: "metadata.name: required", Object: "service/"},
	}
	worker := runProject("shop-worker-prod", "shop/worker/prod", "prod", "shop-prod", run.Skipped)
	worker.Error = "shop-api-prod, which it depends on, failed"
	staging := runProject("shop-web-staging", "shop/web/staging", "staging", "shop-staging", run.NoChanges)
	staging.Plan = stagingPlan()
	return &run.Report{Version: run.FormatVersion, Projects: []run.ProjectReport{api, db, web, staging, worker}}
}

// bigRun has n projects of big plans (updates of diffBytes each) and a few
// small ones.
func bigRun(n, changes, diffBytes int) *run.Report {
	r := &run.Report{Version: run.FormatVersion}
	for i := range n {
		p := runProject(fmt.Sprintf("app-%02d-prod", i), fmt.Sprintf("apps/%02d/prod", i), "prod", "store", run.Changes)
		p.Plan = bigPlan(changes, diffBytes)
		if i%20 == 5 {
			p.Plan = stagingPlan()
			p.Status = run.NoChanges
		}
		r.Projects = append(r.Projects, p)
	}
	return r
}

// appliedFixture is runFixture after apply: web and db applied, the API
// failed, the worker skipped, staging in sync.
func appliedFixture() *run.Report {
	r := runFixture()
	for i := range r.Projects {
		p := &r.Projects[i]
		switch p.Project.Name {
		case "shop-web-prod":
			p.Status = run.Applied
			p.Result = &apply.Result{Objects: []apply.ObjectResult{
				{Ref: deployRef("shop-prod", "web"), Outcome: apply.Configured},
				{Ref: deployRef("shop-prod", "web-canary"), Outcome: apply.Created},
				{Ref: cmRef("shop-prod", "web-settings"), Outcome: apply.Unchanged},
				{Ref: cmRef("shop-prod", "web-old"), Outcome: apply.Pruned},
			}}
		case "shop-db-prod":
			p.Status = run.Failed
			p.Error = "applying secret/db-credentials: admission webhook \"policy.example.com\" denied the request"
			p.Result = &apply.Result{Objects: []apply.ObjectResult{}}
		case "shop-web-staging":
			p.Status = run.Applied
			p.Result = &apply.Result{InSync: true, Objects: []apply.ObjectResult{{Ref: deployRef("shop-staging", "web"), Outcome: apply.Unchanged}}}
		}
	}
	return r
}

// runStatusFixture is runFixture read by status.
func runStatusFixture() *run.Report {
	r := runFixture()
	for i := range r.Projects {
		p := &r.Projects[i]
		p.Plan = nil
		switch p.Project.Name {
		case "shop-web-prod", "shop-web-staging", "shop-db-prod":
			p.Status, p.Error, p.Findings = run.NoChanges, "", nil
			p.Health = &apply.Status{ApplySet: p.ApplySet, Namespace: p.Namespace, Tooling: "kubeplan/v0.1.0", Revision: "3f2c1e0",
				AppliedAt: "2026-11-30T10:00:00Z", CheckedAt: "2026-11-30T12:00:00Z", Result: "success",
				Members: []health.Result{{Ref: deployRef(p.Namespace, "web"), Status: "Current"}}}
			if p.Project.Name == "shop-db-prod" {
				p.Health.Result, p.Health.LastError = "failed", "applying secret/db-credentials: denied"
				p.Health.Members = append(p.Health.Members, health.Result{Ref: deployRef("shop-db", "db"), Status: "InProgress", Message: "0/1 available: ImagePullBackOff"})
			}
		case "shop-api-prod":
			p.Status, p.Findings, p.Error = run.Failed, nil, "configmap/kubeplan-shop-api-prod in namespace shop-prod: the ApplySet does not exist yet (nothing was applied to it)"
		}
	}
	return r
}
