package packaging

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// go install github.com/kubeplan/kubeplan/cmd/kubeplan@VERSION works from a
// clean module cache, the way README's Install section says. GitHub cannot
// be reached here, so the module comes from a clone of this repository's
// HEAD (tagged v1.99.0) that git's url.insteadOf puts in place of
// https://github.com/kubeplan/kubeplan: the go command fetches it with git
// exactly as it would from GitHub (GONOPROXY, the "direct" path), and the
// dependencies come from the local module cache served as a GOPROXY. The
// new, empty GOMODCACHE is what makes the cache clean. A replace directive
// in go.mod, a file the build needs that is not committed, or an embed of a
// file in a nested module would each fail here.
func TestGoInstallFromCleanModuleCache(t *testing.T) {
	root := repoRoot(t)
	tmp := t.TempDir()
	repo := filepath.Join(tmp, "repo")
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	git("clone", "--quiet", root, repo)
	git("-C", repo, "tag", "-a", "-m", "test release", "v1.99.0")

	gitconfig := filepath.Join(tmp, "gitconfig")
	if err := os.WriteFile(gitconfig, []byte("[url \"file://"+repo+"\"]\n\tinsteadOf = https://github.com/kubeplan/kubeplan\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	proxy := "file://" + filepath.Join(strings.TrimSpace(string(out)), "cache", "download")
	gobin := filepath.Join(tmp, "bin")
	cmd := exec.Command("go", "install", "github.com/kubeplan/kubeplan/cmd/kubeplan@v1.99.0")
	cmd.Dir = tmp // outside any module
	cmd.Env = append(os.Environ(),
		"GIT_CONFIG_GLOBAL="+gitconfig,
		"GOMODCACHE="+filepath.Join(tmp, "modcache"),
		"GOPROXY="+proxy,
		"GONOPROXY=github.com/kubeplan/kubeplan",
		"GOSUMDB=off", // offline: go.sum in the module checks every dependency
		"GOFLAGS=-modcacherw",
		"GOBIN="+gobin,
		"GOWORK=off",
	)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go install ...@v1.99.0 from a clean module cache: %v\n%s", err, tail(string(out), 40))
	}
	got, err := exec.Command(filepath.Join(gobin, "kubeplan"), "version").CombinedOutput()
	if err != nil {
		t.Fatalf("kubeplan version: %v\n%s", err, got)
	}
	if !strings.HasPrefix(string(got), "kubeplan v1.99.0 ") {
		t.Fatalf("kubeplan version printed %q, want the module version v1.99.0 that go install stamps", got)
	}
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
