package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/testing/githubtest"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

// TestIntegrationSuspendCLI takes a suspension through the command line
// on testcluster, with a narrow identity (the edit role in one
// namespace): suspend needs a reason and records who and why on the
// parent; every apply (over projects, a plain invocation, a saved plan)
// is then refused with who, why and how to go on, and writes nothing at
// all (every resourceVersion of the namespace stays); plan, its pull
// request comment and JSON, and status show the suspension;
// --ignore-suspend applies and is recorded; resume lets applies run
// again and is recorded; sync applies the project now.
func TestIntegrationSuspendCLI(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	kc := c.Narrow(t, "suspend", ns)
	dir := guardedRepo(t, ns)
	cfg := filepath.Join(dir, "kubeplan.yaml")
	kp := func(verb string, args ...string) (int, string, string) {
		t.Helper()
		pre := []string{verb, "--config", cfg, "--kubeconfig", kc}
		if verb == "apply" || verb == "sync" {
			pre = append(pre, "--wait=false")
		}
		return cli(append(pre, args...)...)
	}
	get := func(args ...string) string {
		out, _ := c.TryKubectl(append([]string{"-n", ns, "get"}, args...)...)
		return strings.TrimSpace(out)
	}
	// versions are the resourceVersions of every ConfigMap and Lease in
	// the namespace: the flags, the parent and the apply lock.
	versions := func() string {
		return get("configmaps,leases", "-o", "jsonpath={range .items[*]}{.kind}/{.metadata.name}={.metadata.resourceVersion} {end}")
	}
	if code, out, errs := kp("apply", "--project", "flags", dir); code != 0 {
		t.Fatalf("first apply: exit %d\n%s\n%s", code, out, errs)
	}

	if code, _, errs := kp("suspend", "flags"); code != 1 || !strings.Contains(errs, "--reason is required") {
		t.Fatalf("suspend without a reason: exit %d\n%s", code, errs)
	}
	if code, _, errs := kp("suspend", "flags", "--reason", "x", "-n", ns); code != 1 || !strings.Contains(errs, "--namespace names one set") {
		t.Fatalf("suspend PROJECT -n: exit %d\n%s", code, errs)
	}
	code, out, errs := kp("suspend", "flags", "--reason", "incident 123")
	who := "suspend-" + ns
	if code != 0 || !strings.Contains(out, `project flags suspended by `+who+`: "incident 123" since `) {
		t.Fatalf("suspend: exit %d\n%s\n%s", code, out, errs)
	}
	if a := get("configmap", "flags", "-o", `jsonpath={.metadata.annotations.kubeplan\.dev/suspended}`); !strings.Contains(a, `"reason":"incident 123"`) || !strings.Contains(a, `"by":"`+who+`"`) {
		t.Fatalf("the parent's suspension: %s", a)
	}

	edit(t, filepath.Join(dir, "apps/flags/banner.yaml"), `rollout-percent: "100"`, `rollout-percent: "50"`)
	commit(t, dir, "flags: half the banner")
	before := versions()
	refused := func(what string, args ...string) {
		t.Helper()
		code, out, errs := cli(args...)
		if code != 1 || !strings.Contains(out+errs, `is suspended by `+who+`: "incident 123" since `) || !strings.Contains(out+errs, "or --ignore-suspend REASON") {
			t.Fatalf("%s: exit %d\n%s\n%s", what, code, out, errs)
		}
		if after := versions(); after != before {
			t.Fatalf("%s wrote to the suspended set:\nbefore %s\nafter  %s", what, before, after)
		}
	}
	refused("apply --project", "apply", "--config", cfg, "--kubeconfig", kc, "--wait=false", "--project", "flags", dir)
	if _, out, errs := kp("apply", "--project", "flags", dir); !strings.Contains(out+errs, "project flags is suspended by "+who+`: "incident 123" since `) ||
		!strings.Contains(out+errs, "; kubeplan resume flags, or --ignore-suspend REASON") {
		t.Fatalf("the refusal does not name the project and the way on:\n%s\n%s", out, errs)
	}
	refused("apply -n --applyset", "apply", "--kubeconfig", kc, "--wait=false", "-n", ns, "--applyset", "configmap/flags", filepath.Join(dir, "apps/flags"))
	saved := filepath.Join(t.TempDir(), "plan.json")
	if code, out, errs := cli("plan", "--kubeconfig", kc, "-n", ns, "--applyset", "configmap/flags", "--out", saved, filepath.Join(dir, "apps/flags")); code != 0 {
		t.Fatalf("plan --out: exit %d\n%s\n%s", code, out, errs)
	}
	refused("apply PLANFILE", "apply", "--kubeconfig", kc, "--wait=false", "-n", ns, saved)
	refused("sync", "sync", "--config", cfg, "--kubeconfig", kc, "--wait=false", "flags")

	code, out, errs = kp("plan", "--project", "flags", "--detailed-exitcode", dir)
	if code != 2 || !strings.Contains(out, "Suspended by "+who+`: "incident 123" since `) || !strings.Contains(out, "rollout-percent") {
		t.Fatalf("plan of a suspended project: exit %d\n%s\n%s", code, out, errs)
	}
	if code, out, errs = kp("plan", "--project", "flags", "-o", "markdown", dir); code != 0 || !strings.Contains(out, "**Suspended** by "+who) {
		t.Fatalf("plan -o markdown: exit %d\n%s\n%s", code, out, errs)
	}
	if code, out, errs = kp("plan", "--project", "flags", "-o", "json", dir); code != 0 || !strings.Contains(out, `"suspended": {`) || !strings.Contains(out, `"reason": "incident 123"`) {
		t.Fatalf("plan -o json: exit %d\n%s\n%s", code, out, errs)
	}
	if code, out, errs = cli("status", "--kubeconfig", kc, "-n", ns, "--applyset", "configmap/flags"); code != 0 || !strings.Contains(out, "Suspended:  by "+who+`: "incident 123" since `) {
		t.Fatalf("status: exit %d\n%s\n%s", code, out, errs)
	}
	if code, out, errs = kp("status", "--project", "flags", "-o", "json", dir); code != 0 || !strings.Contains(out, `"suspended": {`) || !strings.Contains(out, `"suspend": "suspended"`) {
		t.Fatalf("status -o json: exit %d\n%s\n%s", code, out, errs)
	}

	code, out, errs = kp("apply", "--project", "flags", "--ignore-suspend", "hotfix INC-9", dir)
	if code != 0 || get("configmap", "flag-banner", "-o", "jsonpath={.data.rollout-percent}") != "50" {
		t.Fatalf("apply --ignore-suspend: exit %d\n%s\n%s", code, out, errs)
	}
	if a := get("configmap", "flags", "-o", "jsonpath={.metadata.annotations}"); !strings.Contains(a, `hotfix INC-9`) || !strings.Contains(a, `\"suspend\":\"ignored\"`) || !strings.Contains(a, "kubeplan.dev/suspended") {
		t.Fatalf("the override is not recorded, or the set is no longer suspended: %s", a)
	}
	if _, out, _ = cli("status", "--kubeconfig", kc, "-n", ns, "--applyset", "configmap/flags"); !strings.Contains(out, "Applied while suspended: hotfix INC-9") {
		t.Fatalf("status does not list the override:\n%s", out)
	}

	code, out, errs = kp("resume", "flags")
	if code != 0 || !strings.Contains(out, "project flags resumed (was suspended by "+who) {
		t.Fatalf("resume: exit %d\n%s\n%s", code, out, errs)
	}
	if a := get("configmap", "flags", "-o", "jsonpath={.metadata.annotations}"); strings.Contains(a, "kubeplan.dev/suspended") || !strings.Contains(a, `\"suspend\":\"resumed\"`) {
		t.Fatalf("resume left the suspension, or did not record it: %s", a)
	}
	if code, out, _ = kp("resume", "flags"); code != 0 || !strings.Contains(out, "was not suspended") {
		t.Fatalf("resume again: exit %d\n%s", code, out)
	}
	edit(t, filepath.Join(dir, "apps/flags/banner.yaml"), `rollout-percent: "50"`, `rollout-percent: "25"`)
	commit(t, dir, "flags: a quarter of the banner")
	if code, out, errs = kp("sync", "flags"); code != 0 || get("configmap", "flag-banner", "-o", "jsonpath={.data.rollout-percent}") != "25" {
		t.Fatalf("sync after resume: exit %d\n%s\n%s", code, out, errs)
	}
	if code, _, errs = cli("suspend", "--kubeconfig", kc, "-n", ns, "--applyset", "configmap/nothing", "--reason", "x"); code != 1 || !strings.Contains(errs, "does not exist yet") {
		t.Fatalf("suspend of a set that does not exist: exit %d\n%s", code, errs)
	}
}

// TestIntegrationSuspendAction is the apply on merge in GitHub Actions
// (a push event, a fake GitHub API) of a suspended project: refused,
// nothing written, the refusal naming who suspended it and why.
func TestIntegrationSuspendAction(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	kc := c.Narrow(t, "suspend-gh", ns)
	dir := guardedRepo(t, ns)
	cfg := filepath.Join(dir, "kubeplan.yaml")
	args := []string{"apply", "--config", cfg, "--kubeconfig", kc, "--wait=false", "--project", "flags", dir}
	if code, out, errs := cli(args...); code != 0 {
		t.Fatalf("first apply: exit %d\n%s\n%s", code, out, errs)
	}
	if code, out, errs := cli("suspend", "--config", cfg, "--kubeconfig", kc, "flags", "--reason", "incident 123"); code != 0 {
		t.Fatalf("suspend: exit %d\n%s\n%s", code, out, errs)
	}
	edit(t, filepath.Join(dir, "apps/flags/banner.yaml"), `rollout-percent: "100"`, `rollout-percent: "50"`)
	commit(t, dir, "flags: half the banner (#13)")
	merged := strings.TrimSpace(gitOut(t, dir, "rev-parse", "HEAD"))
	srv := githubtest.New(t, ghRepo, ghToken)
	tmp := t.TempDir()
	payload := filepath.Join(tmp, "event.json")
	if err := os.WriteFile(payload, []byte(`{"ref":"refs/heads/main","after":"`+merged+`"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{
		"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "push", "GITHUB_EVENT_PATH": payload, "GITHUB_SHA": merged,
		"GITHUB_REF": "refs/heads/main", "GITHUB_OUTPUT": filepath.Join(tmp, "output"), "GITHUB_STEP_SUMMARY": filepath.Join(tmp, "summary"),
		"GITHUB_API_URL": srv.APIURL(), "GITHUB_REPOSITORY": ghRepo, "GITHUB_SERVER_URL": "https://github.com", "GITHUB_RUN_ID": "99",
		"GITHUB_TOKEN": ghToken, "GITHUB_ACTOR": "erin",
	} {
		t.Setenv(k, v)
	}
	rv := func() string {
		out, _ := c.TryKubectl("-n", ns, "get", "configmaps", "-o", "jsonpath={range .items[*]}{.metadata.name}={.metadata.resourceVersion} {end}")
		return out
	}
	before := rv()
	code, out, errs := cli(args...)
	if code != 1 || !strings.Contains(out+errs, `project flags is suspended by suspend-gh-`+ns+`: "incident 123"`) {
		t.Fatalf("the Action's apply of a suspended project: exit %d\n%s\n%s", code, out, errs)
	}
	if after := rv(); after != before {
		t.Fatalf("the Action's apply wrote to the suspended set:\nbefore %s\nafter  %s", before, after)
	}
}
