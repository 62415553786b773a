package admission

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const testCanary = "CANARY-policytest-5d1e"

// confinedTestRepo is a git repository holding a policy test, and beside
// it (outside) a policy file carrying a canary. It returns the repository
// and the outside directory.
func confinedTestRepo(t *testing.T, test string) (repo, outside string) {
	t.Helper()
	top, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	outside = filepath.Join(top, "outside")
	repo = filepath.Join(top, "repo")
	for _, d := range []string{outside, filepath.Join(repo, "t")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	pol := "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata:\n  name: " + testCanary + "\n"
	if err := os.WriteFile(filepath.Join(outside, "policy.yaml"), []byte(pol), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	if test != "" {
		if err := os.WriteFile(filepath.Join(repo, "t", TestFileName), []byte(test), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return repo, outside
}

// reportText is everything a report would show.
func reportText(rep *TestReport) string {
	var b strings.Builder
	for _, p := range rep.Problems {
		fmt.Fprintf(&b, "%s:%d:%d: %s\n", p.File, p.Line, p.Col, p.Message)
	}
	for _, c := range rep.Cases {
		fmt.Fprintf(&b, "%s %s %s %s\n", c.Policy, c.Got, c.GotMessage, c.Mismatch)
	}
	return b.String()
}

func TestRunTestsConfined(t *testing.T) {
	testNaming := func(policies string) string {
		return "apiVersion: kubeplan.dev/v1alpha1\nkind: PolicyTest\npolicies: [" + policies + "]\nresults:\n  - policy: p\n    resource: Pod/x\n    result: pass\n"
	}
	for _, tc := range []struct {
		name  string
		test  func(outside string) string
		setup func(t *testing.T, repo, outside string)
	}{
		{"policies ../ out", func(string) string { return testNaming("../../outside/policy.yaml") }, nil},
		{"policies absolute", func(o string) string { return testNaming(filepath.Join(o, "policy.yaml")) }, nil},
		{"policies link out", func(string) string { return testNaming("link.yaml") }, func(t *testing.T, repo, outside string) {
			if err := os.Symlink(filepath.Join(outside, "policy.yaml"), filepath.Join(repo, "t", "link.yaml")); err != nil {
				t.Fatal(err)
			}
		}},
		{"policies directory linked out", func(string) string { return testNaming("pols") }, func(t *testing.T, repo, outside string) {
			if err := os.Symlink(outside, filepath.Join(repo, "t", "pols")); err != nil {
				t.Fatal(err)
			}
		}},
		{"test file linked out", func(string) string { return "" }, func(t *testing.T, repo, outside string) {
			if err := os.Symlink(filepath.Join(outside, "policy.yaml"), filepath.Join(repo, "t", TestFileName)); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		for _, from := range []string{"inside the checkout", "elsewhere"} {
			t.Run(tc.name+"/"+from, func(t *testing.T) {
				repo, outside := confinedTestRepo(t, "")
				if s := tc.test(outside); s != "" {
					if err := os.WriteFile(filepath.Join(repo, "t", TestFileName), []byte(s), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				if tc.setup != nil {
					tc.setup(t, repo, outside)
				}
				dir := filepath.Join(repo, "t")
				if from == "inside the checkout" {
					t.Chdir(repo)
					dir = "t"
				}
				rep, err := RunTests(dir)
				if err != nil {
					t.Fatal(err)
				}
				got := reportText(rep)
				if strings.Contains(got, testCanary) {
					t.Fatalf("the outside file was read:\n%s", got)
				}
				if rep.OK() || !strings.Contains(got, "refused: it resolves to "+outside) {
					t.Fatalf("want a refusal naming where the path leads, got:\n%s", got)
				}
			})
		}
	}
	t.Run("test directory linked out", func(t *testing.T) {
		repo, outside := confinedTestRepo(t, "")
		if err := os.Symlink(outside, filepath.Join(repo, "tests")); err != nil {
			t.Fatal(err)
		}
		t.Chdir(repo)
		_, err := RunTests("tests/")
		if err == nil || !strings.Contains(err.Error(), "refused") || strings.Contains(err.Error(), testCanary) {
			t.Fatalf("got %v, want the directory refused", err)
		}
	})
}
