package apply_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/manifest/loader"
	"github.com/kubeplan/kubeplan/plan"
)

// marker is a ConfigMap with the annotation lines ann: its resourceVersion,
// which never moves after it is created, orders it among the writes.
func marker(name, ann string) string {
	if ann != "" {
		ann = "  annotations:\n" + ann
	}
	return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\n" + ann + "data:\n  k: v\n---\n"
}

// argoJob is a Job annotated as an Argo CD hook of phase, with the
// annotation lines extra; image busybox:doesnotexist makes it fail.
func argoJob(name, phase, extra, image string) string {
	return "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: " + name + "\n  annotations:\n    argocd.argoproj.io/hook: " + phase + "\n" + extra +
		"spec:\n  backoffLimit: 0\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n      - {name: main, image: " + image + ", command: [\"true\"]}\n---\n"
}

const wave = "    argocd.argoproj.io/sync-wave: \""

// argoSet is an application annotated for Argo CD: a PreSync migration
// (its image given), wave -1 config, the Deployment in wave 0, a wave 1
// marker, a PostSync smoke test and a SyncFail clean-up.
func argoSet(migrateImage string) string {
	return argoJob("migrate", "PreSync", "", migrateImage) +
		marker("presync-marker", "    argocd.argoproj.io/hook: PreSync\n") +
		marker("config", wave+"-1\"\n") +
		deployment("1", "nginx:1.30") + "---\n" +
		strings.Replace(argoJob("warm", "Sync", "", "busybox"), "    argocd.argoproj.io/hook: Sync\n", "    argocd.argoproj.io/sync-wave: \"0\"\n", 1) +
		marker("after-web", wave+"1\"\n") +
		argoJob("smoke", "PostSync", "    argocd.argoproj.io/hook-delete-policy: HookSucceeded\n", "busybox") +
		argoJob("cleanup", "SyncFail", "", "busybox")
}

func (e *env) planOf() *plan.Plan {
	e.t.Helper()
	res, err := loader.Load([]string{e.dir}, loader.Options{})
	if err != nil {
		e.t.Fatal(err)
	}
	p, err := plan.Make(context.Background(), e.client(), res.Objects, plan.Options{Namespace: e.ns, ApplySet: &e.as})
	if err != nil {
		e.t.Fatalf("plan: %v", err)
	}
	return p
}

func stageNames(p *plan.Plan) string {
	var names []string
	for _, s := range p.Stages {
		names = append(names, s.Name)
	}
	return strings.Join(names, " | ")
}

// An Argo CD repository applies as Argo CD would sync it: PreSync hooks,
// the waves in order, each after the one before is healthy (a Job of
// wave 0 runs a second: wave 1 is written after it completed), then the
// PostSync hooks; the SyncFail hook does not run; the hooks run once per
// content (a second plan is a no-op).
func TestIntegrationStagesArgoCD(t *testing.T) {
	e := newEnv(t)
	e.write("app.yaml", argoSet("busybox"))
	p := e.planOf()
	if got, want := stageNames(p), "PreSync hooks | wave -1 | wave 0 | wave 1 | PostSync hooks | SyncFail hooks"; got != want {
		t.Fatalf("stages %q, want %q", got, want)
	}
	if ch := changeOf(t, p, "Job", "cleanup"); ch.Action != plan.Unchanged || !strings.Contains(ch.Reason, "SyncFail") {
		t.Errorf("SyncFail hook planned %s (%s), want unchanged until a stage fails", ch.Action, ch.Reason)
	}
	r, err := apply.Reconcile(context.Background(), e.client(), p, apply.Options{ApplySet: &e.as, Version: "test", Wait: true, Timeout: 60 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if got := outcomes(r); got != "configmap/presync-marker created, job.batch/migrate created, configmap/config created, deployment.apps/web created, job.batch/warm created, configmap/after-web created, job.batch/smoke created" {
		t.Errorf("outcomes %s", got)
	}
	// The writes' order, from the resourceVersions etcd gave them.
	order := []int{e.rv("configmap", "presync-marker"), e.rv("configmap", "config"), e.rv("configmap", "after-web")}
	if !(order[0] < order[1] && order[1] < order[2]) {
		t.Errorf("resourceVersions presync-marker, config (wave -1), after-web (wave 1): %v, want increasing", order)
	}
	// Wave 0 starts once the migration completed; wave 1 once web rolled out.
	migrated := e.get("job", "migrate", "-o", "jsonpath={.status.completionTime}")
	created := e.get("deployment", "web", "-o", "jsonpath={.metadata.creationTimestamp}")
	available := e.get("deployment", "web", "-o", `jsonpath={.status.conditions[?(@.type=="Available")].lastTransitionTime}`)
	warmed := e.get("job", "warm", "-o", "jsonpath={.status.completionTime}")
	afterWeb := e.get("configmap", "after-web", "-o", "jsonpath={.metadata.creationTimestamp}")
	if migrated == "" || warmed == "" || created < migrated || afterWeb < available || afterWeb < warmed {
		t.Errorf("migration completed %s, web created %s, available %s, warm completed %s, wave 1 created %s: out of order", migrated, created, available, warmed, afterWeb)
	}
	if got := e.get("job", "cleanup", "--ignore-not-found", "-o", "name"); got != "" {
		t.Errorf("SyncFail hook ran on a successful sync: %q", got)
	}
	if got := e.get("job", "smoke", "--ignore-not-found", "-o", "name"); got != "" {
		t.Errorf("HookSucceeded PostSync hook not deleted after it succeeded: %q", got)
	}
	again := e.planOf()
	if again.HasChanges() {
		for _, ch := range again.Changes {
			if ch.Action != plan.Unchanged {
				t.Errorf("second plan: %s %s (%s)", ch.Action, ch.Ref, ch.Reason)
			}
		}
	}
}

// A failing PreSync migration stops the run before wave -1 is written and
// runs the SyncFail hook; the error names the stage.
func TestIntegrationStagesFailingMigration(t *testing.T) {
	e := newEnv(t)
	e.write("app.yaml", argoSet("busybox:doesnotexist"))
	p := e.planOf()
	_, err := apply.Reconcile(context.Background(), e.client(), p, apply.Options{ApplySet: &e.as, Version: "test", Wait: true, Timeout: 20 * time.Second})
	var se *apply.StageError
	if !errors.As(err, &se) || se.Stage != "PreSync hooks" || apply.FailedStage(err) != "PreSync hooks" {
		t.Fatalf("error %v, want the PreSync hooks stage's failure", err)
	}
	if se.OnFail != nil {
		t.Errorf("SyncFail hooks failed: %v", se.OnFail)
	}
	for _, kind := range []string{"configmap/config", "deployment/web", "configmap/after-web"} {
		if got := e.get(kind, "--ignore-not-found", "-o", "name"); got != "" {
			t.Errorf("%s written after the migration failed", got)
		}
	}
	if got := e.get("job", "cleanup", "-o", "jsonpath={.status.succeeded}"); got != "1" {
		t.Errorf("SyncFail hook job.batch/cleanup succeeded=%q, want 1", got)
	}
	if got := e.get("configmap", "gitops-applyset", "-o", `jsonpath={.metadata.annotations.kubeplan\.dev/result}`); got != "failed" {
		t.Errorf("recorded result %q", got)
	}
}

// kapp change rules order the objects of one wave in steps.
func TestIntegrationStagesKapp(t *testing.T) {
	e := newEnv(t)
	e.write("app.yaml", marker("api", "    kapp.k14s.io/change-group: apps.big.co/api\n    kapp.k14s.io/change-rule: upsert after upserting apps.big.co/db\n")+
		marker("db", "    kapp.k14s.io/change-group: apps.big.co/db\n")+
		marker("schema", "    kapp.k14s.io/change-rule.db: upsert after upserting apps.big.co/db\n    kapp.k14s.io/change-rule.api: upsert before upserting apps.big.co/api\n"))
	p := e.planOf()
	if got, want := stageNames(p), "wave 0, step 1 | wave 0, step 2 | wave 0, step 3"; got != want {
		t.Fatalf("stages %q, want %q", got, want)
	}
	if _, _, err := e.run(plan.Options{}, apply.Options{}); err != nil {
		t.Fatal(err)
	}
	db, schema, api := e.rv("configmap", "db"), e.rv("configmap", "schema"), e.rv("configmap", "api")
	if !(db < schema && schema < api) {
		t.Errorf("resourceVersions db %d, schema %d, api %d: want db, then schema, then api", db, schema, api)
	}
}

// Prune runs after the last wave, in the reverse of the waves the pruned
// objects were in.
func TestIntegrationStagesPruneReverse(t *testing.T) {
	e := newEnv(t)
	e.write("app.yaml", marker("w0", "")+marker("w1", wave+"1\"\n")+marker("w2", wave+"2\"\n")+marker("stay", wave+"3\"\n"))
	if _, _, err := e.run(plan.Options{}, apply.Options{}); err != nil {
		t.Fatal(err)
	}
	e.write("app.yaml", marker("stay", wave+"3\"\n"))
	p := e.planOf()
	var prunes []string
	for _, ch := range p.Changes {
		if ch.Action == plan.Prune {
			prunes = append(prunes, ch.Ref.Name+"@"+ch.Stage)
		}
	}
	if got, want := strings.Join(prunes, " "), "w2@wave 2 w1@wave 1 w0@wave 0"; got != want {
		t.Fatalf("prunes %q, want %q", got, want)
	}
	r, err := apply.Reconcile(context.Background(), e.client(), p, apply.Options{ApplySet: &e.as, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if got := outcomes(r); got != "configmap/w2 pruned, configmap/w1 pruned, configmap/w0 pruned" {
		t.Errorf("outcomes %s", got)
	}
}
