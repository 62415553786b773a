package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/ghcomment"
	"github.com/kubeplan/kubeplan/internal/testing/githubtest"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

// shopRepo copies testdata/repos/shop (two apps with dev, staging and prod
// overlays, a Component, plain manifests, a CRD project others depend on,
// and a kubeplan.yaml spreading them over the contexts dev and prod) into a
// new git repository.
func shopRepo(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "shop")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "testdata", "repos", "shop"))); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "init", "-q", "-b", "main")
	git(t, dir, "add", ".")
	git(t, dir, "commit", "-qm", "shop")
	return dir
}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=dev", "-c", "user.email=dev@example.com"}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// shopProjects are the fixture's projects by cluster (kubeplan.yaml).
var shopProjects = map[string][]string{
	"dev": {"apps-api-overlays-dev", "apps-api-overlays-staging", "apps-web-overlays-dev", "apps-web-overlays-staging",
		"platform-monitoring", "platform-namespaces-dev"},
	"prod": {"apps-api-overlays-prod", "apps-web-overlays-prod", "platform-backups", "platform-crds", "platform-namespaces-prod"},
}

// TestIntegrationProjectsTwoClusters plans and applies a multi-environment
// repository against two clusters (the contexts dev and prod) in one run,
// ending in one pull-request comment; then as a GitHub Actions matrix
// would, one job per cluster writing plan files that kubeplan comment
// merges into that same comment.
func TestIntegrationProjectsTwoClusters(t *testing.T) {
	testkube.Integration(t)
	kc, err := twoClusters(t, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, cx := range []string{"dev", "prod"} {
			_ = exec.Command("kubectl", "--kubeconfig", kc, "--context", cx, "delete", "namespace", "shop-dev", "shop-staging", "shop-prod", "monitoring", "--ignore-not-found", "--wait=false").Run()
			_ = exec.Command("kubectl", "--kubeconfig", kc, "--context", cx, "delete", "crd", "backups.ops.shop.example.com", "--ignore-not-found", "--wait=false").Run()
			_ = exec.Command("kubectl", "--kubeconfig", kc, "--context", cx, "delete", "configmap", "-n", "default", "-l", "applyset.kubernetes.io/tooling", "--ignore-not-found").Run()
		}
	})
	t.Setenv("KUBECONFIG", kc)
	t.Setenv("KUBEPLAN_CLUSTERS", "dev,prod") // the runner's map: the contexts of those names
	repo := shopRepo(t)
	srv := githubtest.New(t, ghRepo, ghToken)
	sim := newGitHubSim(t, srv, "pull_request")
	t.Setenv("GITHUB_WORKFLOW", "kubeplan")
	marker := ghcomment.ScopeMarker(ghRepo + ":kubeplan.yaml@kubeplan")
	var all []string
	for _, ps := range shopProjects {
		all = append(all, ps...)
	}

	// One run over every project of both clusters: a section each, a total,
	// exit 2 for changes, one comment with a row per project.
	code, out, errOut := cli("plan", "--all", "--detailed-exitcode", repo)
	if code != 2 {
		t.Fatalf("plan --all: exit %d\n%s\n%s", code, out, errOut)
	}
	for cluster, ps := range shopProjects {
		for _, p := range ps {
			if !strings.Contains(out, "── "+p+" · cluster "+cluster+" · ") {
				t.Errorf("no section for %s on %s:\n%s", p, cluster, out)
			}
		}
	}
	if !strings.Contains(out, "Total: 11 projects, 11 with changes: 34 to add, 0 to change, 0 to prune, 0 unchanged.") {
		t.Errorf("total:\n%s", out)
	}
	// Backups are custom resources of a CRD that platform-crds creates:
	// they are planned to be created after it.
	if !strings.Contains(out, "backup.ops.shop.example.com/api-db-nightly") {
		t.Errorf("the Backups are not planned:\n%s", out)
	}
	comments := srv.Comments(ghRepo, ghPR)
	if len(comments) != 1 || !strings.HasPrefix(comments[0].Body, marker+"\n") {
		t.Fatalf("want one comment with the run's scope marker %s, got %d:\n%v", marker, len(comments), comments)
	}
	body := comments[0].Body
	for cluster, ps := range shopProjects {
		for _, p := range ps {
			if !strings.Contains(body, "| `"+p+"` | `"+cluster+"` |") {
				t.Errorf("the comment has no row for %s on %s:\n%s", p, cluster, body)
			}
		}
	}
	if outs := sim.outputValues(t); outs["has-changes"] != "true" {
		t.Errorf("outputs: %v", outs)
	}

	// The matrix: one job per cluster writes its plans, without commenting;
	// the last job merges them into the same comment.
	plans := t.TempDir()
	srv.ResetLog()
	for cluster, ps := range shopProjects {
		args := []string{"plan", "--comment=false", "--out", filepath.Join(plans, "kubeplan-plans-"+cluster)}
		for _, p := range ps {
			args = append(args, "--project", p)
		}
		if code, out, errOut := cli(append(args, repo)...); code != 0 {
			t.Fatalf("plan of %s's projects: exit %d\n%s\n%s", cluster, code, out, errOut)
		}
	}
	if calls := srv.Calls(); len(calls) != 0 {
		t.Errorf("the matrix jobs called the GitHub API: %v", calls)
	}
	code, out, errOut = cli("comment", "--config", filepath.Join(repo, "kubeplan.yaml"), plans)
	if code != 0 {
		t.Fatalf("comment: exit %d\n%s\n%s", code, out, errOut)
	}
	comments = srv.Comments(ghRepo, ghPR)
	if len(comments) != 1 || !strings.HasPrefix(comments[0].Body, marker+"\n") || !slices.ContainsFunc(srv.Calls(), func(c string) bool { return strings.HasPrefix(c, "PATCH ") }) {
		t.Fatalf("kubeplan comment did not update the run's comment: %v\n%v", srv.Calls(), comments)
	}
	for _, p := range all {
		if !strings.Contains(comments[0].Body, "| `"+p+"` |") {
			t.Errorf("the merged comment has no row for %s", p)
		}
	}

	// Apply every project, in dependsOn order, to both clusters; then
	// nothing is left to change.
	if code, out, errOut := cli("apply", "--all", "--auto-approve", repo); code != 0 {
		t.Fatalf("apply --all: exit %d\n%s\n%s", code, out, errOut)
	} else if !strings.Contains(out, "Total: 11 projects, 11 applied: 34 created") {
		t.Errorf("apply output:\n%s", out)
	}
	if got := kubectl(t, kc, "prod", "get", "backups.ops.shop.example.com", "-n", "shop-prod", "-o", "name"); !strings.Contains(got, "api-db-nightly") {
		t.Errorf("prod has no Backups: %q", got)
	}
	if got := kubectl(t, kc, "dev", "get", "namespaces", "-o", "name"); strings.Contains(got, "shop-prod") || !strings.Contains(got, "shop-staging") {
		t.Errorf("dev's namespaces: %q", got)
	}
	if code, out, _ := cli("plan", "--all", "--detailed-exitcode", "--comment=false", repo); code != 0 {
		t.Errorf("plan after apply: exit %d\n%s", code, out)
	}
	if code, out, _ := cli("status", "--all", repo); code != 0 || strings.Count(out, " ok ") != 11 {
		t.Errorf("status --all: exit %d\n%s", code, out)
	}

	// --changed-since: an overlay's patch selects that overlay only.
	if err := os.WriteFile(filepath.Join(repo, "apps", "web", "overlays", "prod", "replicas.yaml"),
		[]byte("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = cli("plan", "--changed-since", "HEAD", "--detailed-exitcode", "--comment=false", repo)
	if code != 2 || strings.Count(out, "── ") != 1 || !strings.Contains(out, "── apps-web-overlays-prod · cluster prod") || !strings.Contains(out, "~ update deployment.apps/web") {
		t.Errorf("plan --changed-since HEAD: exit %d\n%s\n%s", code, out, errOut)
	}

	// One project failing does not hide the others' plans; exit 1.
	if err := os.WriteFile(filepath.Join(repo, "apps", "api", "overlays", "dev", "kustomization.yaml"), []byte("resources:\n  - ../../base\n  - missing.yaml\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = cli("plan", "--all", "--comment=false", repo)
	if code != 1 || !strings.Contains(errOut, "1 of 11 projects failed: apps-api-overlays-dev") ||
		!strings.Contains(out, "── apps-web-overlays-prod") || !strings.Contains(out, "missing.yaml") {
		t.Errorf("plan with a broken project: exit %d\n%s\n%s", code, out, errOut)
	}
}

func kubectl(t *testing.T, kc, context string, args ...string) string {
	t.Helper()
	out, err := exec.Command("kubectl", append([]string{"--kubeconfig", kc, "--context", context}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("kubectl %v: %v\n%s", args, err, out)
	}
	return string(out)
}
