package apply_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/internal/helmhook"
	"github.com/kubeplan/kubeplan/manifest/loader"
	"github.com/kubeplan/kubeplan/plan"
)

// hookCM is a ConfigMap annotated as a Helm hook with the annotation lines extra.
func hookCM(name, hook, extra, value string) string {
	return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\n  annotations:\n    helm.sh/hook: " + hook + "\n" + extra +
		"data:\n  value: " + value + "\n---\n"
}

// hookJob is a Job annotated as a Helm hook; it completes on the testcluster after a second.
func hookJob(name, hook, extra, arg string) string {
	return "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: " + name + "\n  annotations:\n    helm.sh/hook: " + hook + "\n" + extra +
		"spec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n      - {name: main, image: busybox, command: [\"true\", \"" + arg + "\"]}\n---\n"
}

// plan makes the plan of the directory as the narrow identity, without applying it.
func (e *env) plan() *plan.Plan {
	e.t.Helper()
	res, err := loader.Load([]string{e.dir}, loader.Options{})
	if err != nil {
		e.t.Fatal(err)
	}
	p, err := plan.Make(context.Background(), e.client(), res.Objects, plan.Options{Namespace: e.ns, ApplySet: &e.as})
	if err != nil {
		e.t.Fatal(err)
	}
	return p
}

func changeOf(t *testing.T, p *plan.Plan, kind, name string) plan.Change {
	t.Helper()
	for _, ch := range p.Changes {
		if ch.Ref.Kind == kind && ch.Ref.Name == name {
			return ch
		}
	}
	t.Fatalf("no change for %s/%s", kind, name)
	return plan.Change{}
}

// rv is the object's resourceVersion as a number: etcd's revisions grow,
// so they order writes more finely than timestamps.
func (e *env) rv(kind, name string) int {
	e.t.Helper()
	n, err := strconv.Atoi(e.get(kind, name, "-o", "jsonpath={.metadata.resourceVersion}"))
	if err != nil {
		e.t.Fatalf("%s/%s: resourceVersion: %v", kind, name, err)
	}
	return n
}

// Helm hooks: pre hooks by weight and complete before the other objects,
// post hooks after they are healthy; install vs upgrade; before-hook-creation
// replaces a changed hook Job without --replace; hook-succeeded deletes;
// test and delete hooks are never applied.
func TestIntegrationHelmHooks(t *testing.T) {
	e := newEnv(t)
	hooks := func(migrateArg, installOnly, note string) string {
		return hookCM("pre-config", "pre-install,pre-upgrade", "    helm.sh/hook-weight: \"-1\"\n", "a") +
			hookJob("migrate", "pre-install,pre-upgrade", "    helm.sh/hook-weight: \"1\"\n", migrateArg) +
			hookJob("seed", "pre-install", "    helm.sh/hook-weight: \"2\"\n    helm.sh/hook-delete-policy: hook-succeeded\n", "x") +
			hookCM("install-only", "post-install", "", installOnly) +
			hookCM("upgrade-only", "post-upgrade", "", "u") +
			hookCM("post-note", "post-install,post-upgrade", "", note) +
			hookCM("smoke", "test", "", "t") +
			hookCM("cleanup", "pre-delete", "", "d")
	}
	e.write("hooks.yaml", hooks("one", "i1", "n1"))
	e.write("deployment.yaml", deployment("1", "nginx:1.30"))
	e.write("configmap.yaml", settings)

	// Install: the parent does not exist yet.
	p := e.plan()
	if helmhook.Phase(p.Parent != nil && p.Parent.Exists) != "install" {
		t.Fatalf("phase %s", helmhook.Phase(p.Parent != nil && p.Parent.Exists))
	}
	for _, name := range []string{"upgrade-only", "smoke", "cleanup"} {
		if ch := changeOf(t, p, "ConfigMap", name); ch.Action != plan.Unchanged || !strings.HasPrefix(ch.Reason, "skipped hook") {
			t.Errorf("%s planned %s (%s), want a skipped hook", name, ch.Action, ch.Reason)
		}
	}
	if ch := changeOf(t, p, "Job", "migrate"); ch.Action != plan.Create || ch.Hook != "pre-install,pre-upgrade" {
		t.Errorf("migrate planned %s, hook %q", ch.Action, ch.Hook)
	}
	r, _, err := e.run(plan.Options{}, apply.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := "configmap/pre-config created, job.batch/migrate created, job.batch/seed created, configmap/settings created, deployment.apps/web created, configmap/install-only created, configmap/post-note created"
	if got := outcomes(r); got != want {
		t.Errorf("install outcomes:\n got %s\nwant %s", got, want)
	}
	if got := e.get("job", "migrate", "-o", "jsonpath={.status.succeeded}"); got != "1" {
		t.Errorf("migrate succeeded %q", got)
	}
	// Order of the writes, by etcd revision: the pre ConfigMap, the Job's
	// completion, the main ConfigMap; the Deployment's last status (ready)
	// before the post hook.
	if a, b, c := e.rv("configmap", "pre-config"), e.rv("job", "migrate"), e.rv("configmap", "settings"); a >= b || b >= c {
		t.Errorf("revisions pre-config %d, migrate complete %d, settings %d: not in hook order", a, b, c)
	}
	if a, b := e.rv("deployment", "web"), e.rv("configmap", "post-note"); a >= b {
		t.Errorf("deployment revision %d not before the post hook's %d", a, b)
	}
	if got := e.get("job", "seed", "--ignore-not-found", "-o", "name"); got != "" {
		t.Errorf("hook-succeeded Job still there: %q", got)
	}
	for _, name := range []string{"upgrade-only", "smoke", "cleanup"} {
		if got := e.get("configmap", name, "--ignore-not-found", "-o", "name"); got != "" {
			t.Errorf("hook %s was applied on install", name)
		}
	}
	jobUID := e.get("job", "migrate", "-o", "jsonpath={.metadata.uid}")

	// Upgrade: the Job's template changed (immutable): replaced without
	// --replace; post-install hooks are left alone, post-upgrade ones run.
	e.write("hooks.yaml", hooks("two", "i2", "n2"))
	p = e.plan()
	if helmhook.Phase(p.Parent != nil && p.Parent.Exists) != "upgrade" {
		t.Fatalf("phase %s", helmhook.Phase(p.Parent != nil && p.Parent.Exists))
	}
	if ch := changeOf(t, p, "Job", "migrate"); ch.Action != plan.Replace {
		t.Errorf("migrate planned %s (%s), want replace", ch.Action, ch.Reason)
	}
	if ch := changeOf(t, p, "ConfigMap", "install-only"); ch.Action != plan.Unchanged || !strings.Contains(ch.Reason, "not run on upgrade") {
		t.Errorf("install-only planned %s (%s)", ch.Action, ch.Reason)
	}
	r, _, err = e.run(plan.Options{}, apply.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// seed (pre-install only, deleted after it succeeded) is skipped on
	// upgrade; post-note has Helm's default delete policy,
	// before-hook-creation, so it is replaced rather than updated.
	want = "job.batch/migrate replaced, configmap/post-note replaced, configmap/upgrade-only created"
	if got := outcomes(r); got != want {
		t.Errorf("upgrade outcomes:\n got %s\nwant %s", got, want)
	}
	if got := e.get("job", "migrate", "-o", "jsonpath={.metadata.uid} {.spec.template.spec.containers[0].command[1]} {.status.succeeded}"); strings.HasPrefix(got, jobUID) || !strings.HasSuffix(got, " two 1") {
		t.Errorf("migrate after upgrade %q (uid was %s): not recreated and run", got, jobUID)
	}
	if got := e.get("configmap", "install-only", "-o", "jsonpath={.data.value}"); got != "i1" {
		t.Errorf("post-install hook applied on upgrade: value %q", got)
	}
	if got := e.get("job", "seed", "--ignore-not-found", "-o", "name"); got != "" {
		t.Errorf("pre-install Job ran on upgrade: %q", got)
	}
	for _, name := range []string{"smoke", "cleanup"} {
		if got := e.get("configmap", name, "--ignore-not-found", "-o", "name"); got != "" {
			t.Errorf("hook %s was applied on upgrade", name)
		}
	}
}

// A pre-install hook that does not become healthy stops the run before the
// other objects are written; hook-failed deletes it.
func TestIntegrationHelmHookFails(t *testing.T) {
	e := newEnv(t)
	e.write("hooks.yaml", strings.ReplaceAll(hookJob("migrate", "pre-install", "    helm.sh/hook-delete-policy: hook-failed\n", "x"), "busybox", "busybox:doesnotexist"))
	e.write("configmap.yaml", settings)
	res, err := loader.Load([]string{e.dir}, loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := plan.Make(context.Background(), e.client(), res.Objects, plan.Options{Namespace: e.ns, ApplySet: &e.as})
	if err != nil {
		t.Fatal(err)
	}
	_, err = apply.Reconcile(context.Background(), e.client(), p, apply.Options{ApplySet: &e.as, Version: "test", Wait: true, Timeout: 3 * time.Second})
	if err == nil || !strings.Contains(err.Error(), "pre-install hook job.batch/migrate did not succeed") {
		t.Fatalf("error %v", err)
	}
	if got := e.get("configmap", "settings", "--ignore-not-found", "-o", "name"); got != "" {
		t.Errorf("written after a failed pre-install hook: %q", got)
	}
	if got := e.get("job", "migrate", "--ignore-not-found", "-o", "name"); got != "" {
		t.Errorf("hook-failed Job still there: %q", got)
	}
}

// Post hooks run only after the other objects became healthy.
func TestIntegrationHelmPostHookAfterHealthOnly(t *testing.T) {
	e := newEnv(t)
	e.write("hooks.yaml", hookCM("post-note", "post-install", "", "n"))
	e.write("deployment.yaml", deployment("1", "nginx:doesnotexist"))
	res, err := loader.Load([]string{e.dir}, loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := plan.Make(context.Background(), e.client(), res.Objects, plan.Options{Namespace: e.ns, ApplySet: &e.as})
	if err != nil {
		t.Fatal(err)
	}
	r, err := apply.Reconcile(context.Background(), e.client(), p, apply.Options{ApplySet: &e.as, Version: "test", Wait: true, Timeout: 3 * time.Second})
	if err == nil {
		t.Fatal("an unhealthy Deployment did not fail the apply")
	}
	if got := outcomes(r); got != "deployment.apps/web created" {
		t.Errorf("outcomes %s", got)
	}
	if got := e.get("configmap", "post-note", "--ignore-not-found", "-o", "name"); got != "" {
		t.Errorf("post hook applied after the health wait failed: %q", got)
	}
}

// A hook-succeeded hook runs once per content: the parent records it, a
// scheduled apply of the same chart does not create it again, a changed
// hook runs again, and a hook that leaves the chart leaves the record.
func TestIntegrationHelmHookSucceededRunsOncePerContent(t *testing.T) {
	e := newEnv(t)
	migrate := func(arg string) string {
		return hookJob("migrate", "pre-install,pre-upgrade", "    helm.sh/hook-delete-policy: hook-succeeded\n", arg)
	}
	e.write("hooks.yaml", migrate("v1"))
	e.write("configmap.yaml", settings)
	r, _, err := e.run(plan.Options{}, apply.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := outcomes(r); got != "job.batch/migrate created, configmap/settings created" {
		t.Fatalf("install outcomes %s", got)
	}
	record := func() string {
		return e.get("configmap", "gitops-applyset", "-o", `jsonpath={.metadata.annotations.kubeplan\.dev/hooks-ran}`)
	}
	first := record()
	if !strings.Contains(first, `"`+e.ns+`/job.batch/migrate":"`) {
		t.Fatalf("hooks-ran record %q", first)
	}
	if got := e.get("job", "migrate", "--ignore-not-found", "-o", "name"); got != "" {
		t.Fatalf("hook-succeeded Job not deleted: %q", got)
	}
	parentRV := e.rv("configmap", "gitops-applyset")

	// The same content again (the next scheduled round): not run, nothing written.
	p := e.plan()
	if ch := changeOf(t, p, "Job", "migrate"); ch.Action != plan.Unchanged || !strings.HasPrefix(ch.Reason, "hook ran") {
		t.Fatalf("migrate planned %s (%s), want unchanged: it ran with this content", ch.Action, ch.Reason)
	}
	if r, _, err = e.run(plan.Options{}, apply.Options{}); err != nil {
		t.Fatal(err)
	}
	if got := outcomes(r); got != "" {
		t.Errorf("second apply wrote %s", got)
	}
	if got := e.get("job", "migrate", "--ignore-not-found", "-o", "name"); got != "" {
		t.Errorf("the hook ran again: %q", got)
	}
	if rv := e.rv("configmap", "gitops-applyset"); rv != parentRV {
		t.Errorf("a no-op round wrote the parent (%d -> %d)", parentRV, rv)
	}

	// A changed hook runs again, and the record follows it.
	e.write("hooks.yaml", migrate("v2"))
	if ch := changeOf(t, e.plan(), "Job", "migrate"); ch.Action != plan.Create {
		t.Fatalf("changed migrate planned %s (%s), want create", ch.Action, ch.Reason)
	}
	if r, _, err = e.run(plan.Options{}, apply.Options{}); err != nil {
		t.Fatal(err)
	}
	if got := outcomes(r); got != "job.batch/migrate created" {
		t.Errorf("upgrade outcomes %s", got)
	}
	if second := record(); second == first || second == "" {
		t.Errorf("record did not follow the changed hook: %q then %q", first, second)
	}

	// The hook leaves the chart: the next run that writes drops the record
	// (a run with nothing to write writes nothing, not even the parent).
	e.write("hooks.yaml", "")
	e.write("configmap.yaml", strings.Replace(settings, "name: settings", "name: settings-v2", 1))
	if _, _, err = e.run(plan.Options{}, apply.Options{}); err != nil {
		t.Fatal(err)
	}
	if got := record(); got != "" {
		t.Errorf("record kept for a hook that left the chart: %q", got)
	}
}
