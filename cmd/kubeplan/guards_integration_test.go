package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

// guardedRepo copies testdata/repos/guarded (a platform repository: the
// shop with its volume claim, five feature flags, payments with change
// windows, a CRD and its custom resource; kubeplan.yaml with guard rules)
// into a new git repository, its projects in namespace ns. The payments
// project gets one more deny window, always active (every minute, for
// five), so that it is closed whatever the day the test runs.
func guardedRepo(t *testing.T, ns string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "platform")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "testdata", "repos", "guarded"))); err != nil {
		t.Fatal(err)
	}
	edit(t, filepath.Join(dir, "kubeplan.yaml"), "  namespace: platform", "  namespace: "+ns)
	edit(t, filepath.Join(dir, "kubeplan.yaml"), "      # The year-end freeze.", "      - {kind: deny, schedule: \"* * * * *\", duration: 5m}\n      # The year-end freeze.")
	git(t, dir, "init", "-q", "-b", "main")
	git(t, dir, "add", ".")
	git(t, dir, "commit", "-qm", "platform")
	return dir
}

// edit replaces old with new in file, which must hold old.
func edit(t *testing.T, file, old, new string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), old) {
		t.Fatalf("%s does not hold %q", file, old)
	}
	if err := os.WriteFile(file, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// commit commits every change of dir.
func commit(t *testing.T, dir, msg string) {
	t.Helper()
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", msg)
}

// TestIntegrationGuardsCLI takes the guard rules through the command
// line on testcluster, with the edit role in one namespace: a change
// that prunes a PersistentVolumeClaim, one that prunes three of five
// feature flags and one that deletes a CRD are each refused, nothing
// written, until approved with --approve, then applied; the approval is
// recorded on the ApplySet parent and shown by status; a denied change
// is refused even with --approve; a project whose change windows are
// closed waits unless --outside-window, which is recorded too.
func TestIntegrationGuardsCLI(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	kc := c.Narrow(t, "guards", ns)
	dir := guardedRepo(t, ns)
	cfg := filepath.Join(dir, "kubeplan.yaml")
	// kp runs kubeplan VERB with the repository's config (and, for
	// apply, without the health wait: the images do not exist).
	kp := func(verb string, args ...string) (int, string, string) {
		t.Helper()
		pre := []string{verb, "--config", cfg}
		if verb == "apply" {
			pre = append(pre, "--wait=false")
		}
		return cli(append(append(pre, args...), dir)...)
	}
	get := func(args ...string) string {
		out, _ := c.TryKubectl(append([]string{"-n", ns, "get", "--ignore-not-found"}, args...)...)
		return strings.TrimSpace(out)
	}

	code, out, errs := kp("apply", "--kubeconfig", kc, "--project", "shop", "--project", "flags")
	if code != 0 {
		t.Fatalf("first apply: exit %d\n%s\n%s", code, out, errs)
	}
	if get("persistentvolumeclaim", "uploads", "-o", "name") == "" || get("configmap", "flag-banner", "-o", "name") == "" {
		t.Fatalf("first apply did not create the claim and the flags:\n%s", out)
	}

	t.Run("pvc", func(t *testing.T) {
		// The claim leaves the base (a refactor moved it to another
		// project): plan says what needs approval, apply refuses, naming
		// the rule and the flag; the claim stays.
		edit(t, filepath.Join(dir, "apps/shop/base/kustomization.yaml"), "  - pvc.yaml\n", "")
		edit(t, filepath.Join(dir, "apps/shop/base/deployment.yaml"), "          volumeMounts:\n            - name: uploads\n              mountPath: /srv/uploads\n", "")
		edit(t, filepath.Join(dir, "apps/shop/base/deployment.yaml"), "      volumes:\n        - name: uploads\n          persistentVolumeClaim:\n            claimName: uploads\n", "")
		commit(t, dir, "shop: the uploads move to object storage")
		code, out, errs := kp("plan", "--kubeconfig", kc, "--project", "shop", "--detailed-exitcode")
		if code != 2 || !strings.Contains(out, "protect-pvc") || !strings.Contains(out, "persistentvolumeclaim/uploads") {
			t.Fatalf("plan: exit %d\n%s\n%s", code, out, errs)
		}
		code, out, errs = kp("plan", "--kubeconfig", kc, "--project", "shop", "-o", "json")
		if code != 0 || !strings.Contains(out, `"rule": "protect-pvc"`) || !strings.Contains(out, `"outcome": "require-approval"`) {
			t.Fatalf("plan -o json: exit %d\n%s\n%s", code, out, errs)
		}
		code, out, errs = kp("apply", "--kubeconfig", kc, "--project", "shop")
		if code != 1 || !strings.Contains(out+errs, "protect-pvc") || !strings.Contains(out+errs, "--approve protect-pvc=") {
			t.Fatalf("apply without approval: exit %d\n%s\n%s", code, out, errs)
		}
		if get("persistentvolumeclaim", "uploads", "-o", "jsonpath={.metadata.deletionTimestamp}") != "" || get("persistentvolumeclaim", "uploads", "-o", "name") == "" {
			t.Fatal("the refused apply deleted the claim")
		}
		if replicas := get("deployment", "web", "-o", "jsonpath={.spec.template.spec.volumes}"); replicas == "" {
			t.Fatal("the refused apply wrote the deployment: nothing may be written")
		}
		if strings.Contains(get("configmap", "shop", "-o", "jsonpath={.metadata.annotations}"), "protect-pvc") == false {
			t.Error("the refusal left no pending approval on the parent")
		}
		code, out, errs = kp("apply", "--kubeconfig", kc, "--project", "shop", "--approve", "protect-pvc=uploads moved to object storage (OPS-42)")
		if code != 0 || !strings.Contains(out, "persistentvolumeclaim/uploads") {
			t.Fatalf("approved apply: exit %d\n%s\n%s", code, out, errs)
		}
		// One read: the claim is gone, or terminating (its protection
		// finalizer holds it a moment).
		if get("persistentvolumeclaim", "uploads", "-o", "jsonpath={.metadata.name}/{.metadata.deletionTimestamp}") == "uploads/" {
			t.Fatalf("the approved apply did not delete the claim:\n%s", out)
		}
		code, out, errs = cli("status", "--config", cfg, "--kubeconfig", kc, "--project", "shop", "-o", "json", dir)
		if code != 0 || !strings.Contains(out, "uploads moved to object storage (OPS-42)") || !strings.Contains(out, `"rule": "protect-pvc"`) {
			t.Fatalf("status does not show the approval: exit %d\n%s\n%s", code, out, errs)
		}
		code, out, _ = cli("status", "--kubeconfig", kc, "-n", ns, "--applyset", "configmap/shop")
		if code != 0 || !strings.Contains(out, "protect-pvc") || !strings.Contains(out, "OPS-42") {
			t.Fatalf("status text does not show the approval: exit %d\n%s", code, out)
		}
	})

	t.Run("mass-prune", func(t *testing.T) {
		// Three of the five flags leave: 60% of the set is pruned.
		edit(t, filepath.Join(dir, "apps/flags/kustomization.yaml"), "  - search.yaml\n  - recommendations.yaml\n  - banner.yaml\n", "")
		commit(t, dir, "flags: retire three flags")
		code, out, errs := kp("apply", "--kubeconfig", kc, "--project", "flags")
		if code != 1 || !strings.Contains(out+errs, "mass-prune") || !strings.Contains(out+errs, "--approve mass-prune=") {
			t.Fatalf("apply without approval: exit %d\n%s\n%s", code, out, errs)
		}
		if get("configmap", "flag-banner", "-o", "name") == "" {
			t.Fatal("the refused apply pruned a flag")
		}
		// An approval of another rule does not do.
		if code, out, errs := kp("apply", "--kubeconfig", kc, "--project", "flags", "--approve", "protect-pvc=wrong rule"); code != 1 || !strings.Contains(out+errs, "mass-prune") {
			t.Fatalf("apply approved for another rule: exit %d\n%s", code, errs)
		}
		// A mistyped rule is refused, not ignored.
		if code, out, errs := kp("apply", "--kubeconfig", kc, "--project", "flags", "--approve", "mass-prunes=typo"); code != 1 || !strings.Contains(out+errs, "--approve mass-prunes: no guard rule of that name") {
			t.Fatalf("apply approving a rule that does not exist: exit %d\n%s\n%s", code, out, errs)
		}
		code, out, errs = kp("apply", "--kubeconfig", kc, "--project", "flags", "--approve", "mass-prune=flags retired after the spring launch")
		if code != 0 {
			t.Fatalf("approved apply: exit %d\n%s\n%s", code, out, errs)
		}
		for _, f := range []string{"search", "recommendations", "banner"} {
			if get("configmap", "flag-"+f, "-o", "name") != "" {
				t.Errorf("flag-%s was not pruned", f)
			}
		}
		if get("configmap", "flag-checkout", "-o", "name") == "" {
			t.Error("flag-checkout was pruned")
		}
	})

	t.Run("deny", func(t *testing.T) {
		edit(t, filepath.Join(dir, "apps/shop/base/service.yaml"), "spec:\n", "spec:\n  type: LoadBalancer\n")
		commit(t, dir, "shop: expose the web service")
		code, out, errs := kp("apply", "--kubeconfig", kc, "--project", "shop", "--approve", "no-public-load-balancers=please")
		if code != 1 || !strings.Contains(out+errs, "no-public-load-balancers") || !strings.Contains(out+errs, "use the shared ingress instead") {
			t.Fatalf("denied apply: exit %d\n%s\n%s", code, out, errs)
		}
		if typ := get("service", "web", "-o", "jsonpath={.spec.type}"); typ != "ClusterIP" {
			t.Fatalf("the denied change was applied: service type %q", typ)
		}
		edit(t, filepath.Join(dir, "apps/shop/base/service.yaml"), "spec:\n  type: LoadBalancer\n", "spec:\n")
		commit(t, dir, "shop: revert")
	})

	t.Run("window", func(t *testing.T) {
		code, out, errs := kp("plan", "--kubeconfig", kc, "--project", "payments")
		if code != 0 || !strings.Contains(out, "window") {
			t.Fatalf("plan does not say the window is closed: exit %d\n%s\n%s", code, out, errs)
		}
		code, out, errs = kp("apply", "--kubeconfig", kc, "--project", "payments")
		if code != 1 || !strings.Contains(out+errs, "--outside-window") {
			t.Fatalf("apply outside the window: exit %d\n%s\n%s", code, out, errs)
		}
		if get("deployment", "payments", "-o", "name") != "" {
			t.Fatal("the apply outside the window wrote")
		}
		code, out, errs = kp("apply", "--kubeconfig", kc, "--project", "payments", "--outside-window", "hotfix for INC-7")
		if code != 0 || get("deployment", "payments", "-o", "name") == "" {
			t.Fatalf("override: exit %d\n%s\n%s", code, out, errs)
		}
		code, out, _ = cli("status", "--config", cfg, "--kubeconfig", kc, "--project", "payments", "-o", "json", dir)
		if code != 0 || !strings.Contains(out, "hotfix for INC-7") || !strings.Contains(out, `"window": true`) {
			t.Fatalf("status does not show the override: exit %d\n%s", code, out)
		}
		// Nothing to change: a closed window refuses nothing.
		if code, out, errs := kp("apply", "--kubeconfig", kc, "--project", "payments"); code != 0 {
			t.Fatalf("no-op apply in a closed window: exit %d\n%s\n%s", code, out, errs)
		}
	})

	t.Run("saved-plan", func(t *testing.T) {
		// A plan saved before approval is re-judged when it is applied:
		// the rules and the approvals of the apply count.
		// Both flags left are replaced by one new flag: the whole set is
		// pruned.
		edit(t, filepath.Join(dir, "apps/flags/kustomization.yaml"), "  - checkout.yaml\n  - dark-mode.yaml\n", "  - checkout-v2.yaml\n")
		if err := os.WriteFile(filepath.Join(dir, "apps/flags/checkout-v2.yaml"), []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: flag-checkout-v2\ndata:\n  enabled: \"true\"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		commit(t, dir, "flags: one checkout flag for both")
		// A plain invocation of the flags' set, saved; the repository's
		// kubeplan.yaml (found from the path) gives its rules.
		planFile := filepath.Join(t.TempDir(), "flags.plan")
		if code, out, errs := cli("plan", "--kubeconfig", kc, "-n", ns, "--applyset", "configmap/flags", "--out", planFile, filepath.Join(dir, "apps/flags")); code != 0 {
			t.Fatalf("plan --out: exit %d\n%s\n%s", code, out, errs)
		}
		code, out, errs := cli("apply", "--kubeconfig", kc, planFile)
		if code != 1 || !strings.Contains(out+errs, "mass-prune") {
			t.Fatalf("saved plan without approval: exit %d\n%s\n%s", code, out, errs)
		}
		if get("configmap", "flag-dark-mode", "-o", "name") == "" {
			t.Fatal("the refused saved plan pruned")
		}
		code, out, errs = cli("apply", "--kubeconfig", kc, "--approve", "mass-prune=dark mode retired", planFile)
		if code != 0 || get("configmap", "flag-dark-mode", "-o", "name") != "" {
			t.Fatalf("approved saved plan: exit %d\n%s\n%s", code, out, errs)
		}
	})
}

// TestIntegrationGuardsCRD deletes a CustomResourceDefinition (and the
// custom resource of its kind) as cluster-admin: refused until approved.
func TestIntegrationGuardsCRD(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	kc := c.AdminKubeconfig()
	dir := guardedRepo(t, ns)
	cfg := filepath.Join(dir, "kubeplan.yaml")
	t.Cleanup(func() { _, _ = c.TryKubectl("delete", "crd", "backups.guards.example.com", "--ignore-not-found") })
	apply := func(more ...string) (int, string, string) {
		return cli(append(append([]string{"apply", "--config", cfg, "--kubeconfig", kc, "--wait=false", "--project", "crds"}, more...), dir)...)
	}
	if code, out, errs := apply(); code != 0 {
		t.Fatalf("first apply: exit %d\n%s\n%s", code, out, errs)
	}
	if err := os.WriteFile(filepath.Join(dir, "platform/crds/kustomization.yaml"), []byte("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	commit(t, dir, "backups move to the vendor's operator")
	code, out, errs := apply("--allow-empty")
	if code != 1 || !strings.Contains(out+errs, "protect-crd") || !strings.Contains(out+errs, "--approve protect-crd=") {
		t.Fatalf("apply without approval: exit %d\n%s\n%s", code, out, errs)
	}
	if out, _ := c.TryKubectl("get", "crd", "backups.guards.example.com", "-o", "name"); strings.TrimSpace(out) == "" {
		t.Fatal("the refused apply deleted the CRD")
	}
	code, out, errs = apply("--allow-empty", "--approve", "protect-crd=moved to the vendor's operator", "--approve", "mass-prune=the project is emptied on purpose")
	if code != 0 {
		t.Fatalf("approved apply: exit %d\n%s\n%s", code, out, errs)
	}
	if out, _ := c.TryKubectl("get", "crd", "backups.guards.example.com", "-o", "jsonpath={.metadata.deletionTimestamp}{.metadata.name}"); out == "backups.guards.example.com" {
		t.Fatal("the approved apply did not delete the CRD")
	}
}
