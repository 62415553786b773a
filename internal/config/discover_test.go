package config

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

// write creates path (and its directories) holding content.
func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// gitRepo makes dir a git repository with `git init`.
func gitRepo(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
}

// tempDir is t.TempDir with symlinks resolved, so paths compare equal to
// what os.Getwd reports after a Chdir there.
func tempDir(t *testing.T) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestDiscoverFromSubdirectoryOfRepo(t *testing.T) {
	outer := tempDir(t)
	write(t, filepath.Join(outer, DefaultFile), "kubeVersion: \"1.20\"\n") // above the repo: never read
	repo := filepath.Join(outer, "repo")
	gitRepo(t, repo)
	write(t, filepath.Join(repo, DefaultFile), "kubeVersion: \"1.37\"\nexclude: [\"charts/**\", \"*.bak\", \"**/testdata/**\", \"/abs/**\"]\ncrds: [crds, ../repo/crds.yaml]\n")
	sub := filepath.Join(repo, "apps", "web")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(sub)

	c, err := Discover(".")
	if err != nil {
		t.Fatal(err)
	}
	if c.KubeVersion != "1.37" {
		t.Fatalf("kubeVersion %q: read the wrong file (%s)", c.KubeVersion, c.File)
	}
	if want := filepath.Join("..", "..", DefaultFile); c.File != want {
		t.Errorf("File = %q, want %q", c.File, want)
	}
	if c.Dir != repo {
		t.Errorf("Dir = %q, want %q", c.Dir, repo)
	}
	if got, want := c.CRDPaths(), []string{filepath.Join("..", "..", "crds"), filepath.Join("..", "..", "crds.yaml")}; !slices.Equal(got, want) {
		t.Errorf("CRDPaths = %q, want %q", got, want)
	}
	if got, want := c.ExcludePatterns(), []string{"../../charts/**", "*.bak", "**/testdata/**", "/abs/**"}; !slices.Equal(got, want) {
		t.Errorf("ExcludePatterns = %q, want %q", got, want)
	}

	// From the root itself paths stay as written; a deeper dir finds the same file.
	t.Chdir(repo)
	if got := c.Resolve("crds"); got != "crds" {
		t.Errorf("Resolve from the root = %q", got)
	}
	c2, err := Discover(filepath.Join(repo, "apps"))
	if err != nil || c2.File != DefaultFile || c2.KubeVersion != "1.37" {
		t.Errorf("Discover(apps) = %+v, %v", c2, err)
	}
}

func TestDiscoverNearestFileWins(t *testing.T) {
	repo := tempDir(t)
	gitRepo(t, repo)
	write(t, filepath.Join(repo, DefaultFile), "kubeVersion: \"1.37\"\n")
	write(t, filepath.Join(repo, "team", DefaultFile), "kubeVersion: \"1.36\"\ncrds: [crds]\n")
	c, err := Discover(filepath.Join(repo, "team"))
	if err != nil {
		t.Fatal(err)
	}
	if c.KubeVersion != "1.36" || c.Dir != filepath.Join(repo, "team") {
		t.Errorf("got %+v", c)
	}
	t.Chdir(repo)
	if got := c.Resolve("crds"); got != filepath.Join("team", "crds") {
		t.Errorf("Resolve = %q", got)
	}
}

func TestDiscoverStopsAtRepoRoot(t *testing.T) {
	outer := tempDir(t)
	write(t, filepath.Join(outer, DefaultFile), "kubeVersion: \"1.20\"\n")
	repo := filepath.Join(outer, "repo")
	gitRepo(t, repo)
	// A worktree or submodule has a .git file, not a directory: also a root.
	wt := filepath.Join(outer, "worktree")
	write(t, filepath.Join(wt, ".git"), "gitdir: "+filepath.Join(repo, ".git")+"\n")
	for _, dir := range []string{filepath.Join(repo, "a", "b"), repo, filepath.Join(wt, "x")} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		c, err := Discover(dir)
		if err != nil {
			t.Fatal(err)
		}
		if c.File != "" || c.Dir != "" || c.KubeVersion != "" {
			t.Errorf("Discover(%s) read %s, above the repository root", dir, c.File)
		}
		if got := c.Resolve("crds"); got != "crds" {
			t.Errorf("empty config: Resolve = %q", got)
		}
	}
}

func TestDiscoverOutsideRepoLooksOnlyInDir(t *testing.T) {
	top := tempDir(t)
	for d := top; filepath.Dir(d) != d; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			testkube.SkipUnlessCI(t, "the temporary directory is inside the git repository "+d+": set TMPDIR outside it")
		}
	}
	write(t, filepath.Join(top, DefaultFile), "kubeVersion: \"1.37\"\n")
	sub := filepath.Join(top, "sub")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if c, err := Discover(sub); err != nil || c.File != "" {
		t.Errorf("Discover(sub) outside a repository = %+v, %v; want no file", c, err)
	}
	if c, err := Discover(top); err != nil || c.KubeVersion != "1.37" || c.Dir != top {
		t.Errorf("Discover(top) = %+v, %v", c, err)
	}
}

func TestDiscoverBadFile(t *testing.T) {
	repo := tempDir(t)
	gitRepo(t, repo)
	write(t, filepath.Join(repo, DefaultFile), "kubeVersion: [\n")
	if _, err := Discover(repo); err == nil {
		t.Error("a broken config must be an error, not skipped")
	}
}

func TestLoadSetsDir(t *testing.T) {
	dir := tempDir(t)
	p := filepath.Join(dir, "ci", "kubeplan.yaml")
	write(t, p, "crds: [../crds]\n")
	c, err := Load(p, true)
	if err != nil {
		t.Fatal(err)
	}
	if c.File != p || c.Dir != filepath.Join(dir, "ci") {
		t.Errorf("File %q Dir %q", c.File, c.Dir)
	}
	t.Chdir(dir)
	if got := c.CRDPaths(); !slices.Equal(got, []string{"crds"}) {
		t.Errorf("CRDPaths = %q", got)
	}
}
