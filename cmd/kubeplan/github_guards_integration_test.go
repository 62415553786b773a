package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/internal/testing/githubtest"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

// TestIntegrationGuardsAction is the apply on merge in GitHub Actions
// (a push event) against a fake GitHub API: the pull request merged as
// the pushed commit prunes the shop's volume claim. Without an approving
// review, or with one from someone who does not own apps/shop/ in the
// base commit's CODEOWNERS, or with one on an older commit, the apply is
// refused and writes nothing; an approving review of a code owner (a
// member of @acme/db-team) on the pull request's head lets it through,
// and the approval is recorded with its reviewer and pull request.
func TestIntegrationGuardsAction(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	kc := c.Narrow(t, "guards-gh", ns)
	dir := guardedRepo(t, ns)
	cfg := filepath.Join(dir, "kubeplan.yaml")
	args := []string{"apply", "--config", cfg, "--kubeconfig", kc, "--wait=false", "--project", "shop", dir}
	if code, out, errs := cli(args...); code != 0 {
		t.Fatalf("first apply: exit %d\n%s\n%s", code, out, errs)
	}
	claim := func() string {
		out, _ := c.TryKubectl("-n", ns, "get", "pvc", "uploads", "--ignore-not-found", "-o", "jsonpath={.metadata.name}{.metadata.deletionTimestamp}")
		return strings.TrimSpace(out)
	}
	base := strings.TrimSpace(gitOut(t, dir, "rev-parse", "HEAD"))
	edit(t, filepath.Join(dir, "apps/shop/base/kustomization.yaml"), "  - pvc.yaml\n", "")
	edit(t, filepath.Join(dir, "apps/shop/base/deployment.yaml"), "          volumeMounts:\n            - name: uploads\n              mountPath: /srv/uploads\n", "")
	edit(t, filepath.Join(dir, "apps/shop/base/deployment.yaml"), "      volumes:\n        - name: uploads\n          persistentVolumeClaim:\n            claimName: uploads\n", "")
	commit(t, dir, "shop: uploads move to object storage (#12)")
	merged := strings.TrimSpace(gitOut(t, dir, "rev-parse", "HEAD"))
	const head = "5e1f00d0c0ffee0000000000000000000000beef"

	srv := githubtest.New(t, ghRepo, ghToken)
	srv.AddPull(githubtest.Pull{Number: 12, Repo: ghRepo, Author: "erin", State: "closed", MergedAt: time.Now().Add(-time.Minute),
		MergeCommitSHA: merged, HeadSHA: head, BaseSHA: base})
	owners, err := os.ReadFile(filepath.Join(dir, ".github", "CODEOWNERS"))
	if err != nil {
		t.Fatal(err)
	}
	srv.SetFile(ghRepo, base, ".github/CODEOWNERS", string(owners))
	srv.SetTeam("acme/db-team", map[string]string{"dave": "active"})
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

	refused := func(what string) {
		t.Helper()
		code, out, errs := cli(args...)
		if code != 1 || !strings.Contains(out+errs, "protect-pvc") || claim() != "uploads" {
			t.Fatalf("%s: exit %d, claim %q\n%s\n%s", what, code, claim(), out, errs)
		}
	}
	refused("no review")
	srv.AddReview(ghRepo, 12, githubtest.Review{Login: "mallory", State: "APPROVED", CommitID: head, SubmittedAt: time.Now()})
	refused("a review of someone who owns nothing of apps/shop/")
	srv.AddReview(ghRepo, 12, githubtest.Review{Login: "dave", State: "APPROVED", CommitID: "0000000000000000000000000000000000000001", SubmittedAt: time.Now()})
	refused("a code owner's review of an older commit")

	srv.AddReview(ghRepo, 12, githubtest.Review{Login: "dave", State: "APPROVED", CommitID: head, SubmittedAt: time.Now()})
	code, out, errs := cli(args...)
	if code != 0 || claim() == "uploads" {
		t.Fatalf("approved by a code owner: exit %d, claim %q\n%s\n%s", code, claim(), out, errs)
	}
	for _, call := range srv.Calls() {
		if strings.Contains(call, "/contents/") && !strings.Contains(call, "ref="+base) {
			t.Errorf("CODEOWNERS read at another commit than the base: %s", call)
		}
	}
	t.Setenv("GITHUB_ACTIONS", "")
	code, out, _ = cli("status", "--config", cfg, "--kubeconfig", kc, "--project", "shop", "-o", "json", dir)
	if code != 0 || !strings.Contains(out, `"via": "review"`) || !strings.Contains(out, `"by": "@dave"`) || !strings.Contains(out, `"pullRequest": 12`) {
		t.Fatalf("status does not record the review: exit %d\n%s", code, out)
	}
}

// gitOut runs git in dir and returns its output.
func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %v: %v", args, err)
	}
	return string(out)
}
