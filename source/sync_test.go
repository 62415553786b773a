package source

import (
	"github.com/kubeplan/kubeplan/internal/testing/testkube"

	"context"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// gitFixture is a bare "remote" repository plus a working clone that
// commits and pushes to it.
type gitFixture struct {
	t      *testing.T
	bare   string
	work   string
	cache  string
	branch string
}

func needGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		testkube.SkipUnlessCI(t, "the git CLI is not installed (go-git needs it for local repositories)")
	}
}

func runGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull,
		"GIT_AUTHOR_NAME=Ada", "GIT_AUTHOR_EMAIL=ada@example.com",
		"GIT_COMMITTER_NAME=Ada", "GIT_COMMITTER_EMAIL=ada@example.com",
		"GIT_EDITOR=true", "LC_ALL=C")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

func newGitFixture(t *testing.T, branch string) *gitFixture {
	needGit(t)
	root := t.TempDir()
	f := &gitFixture{t: t, bare: filepath.Join(root, "remote.git"), work: filepath.Join(root, "work"),
		cache: filepath.Join(root, "cache"), branch: branch}
	runGit(t, root, "init", "-q", "--bare", "-b", branch, f.bare)
	runGit(t, root, "init", "-q", "-b", branch, f.work)
	runGit(t, f.work, "remote", "add", "origin", f.bare)
	f.write("manifests/deployment.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n")
	f.write("manifests/service.yaml", "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n")
	f.write("manifests/configmap.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  color: blue\n")
	f.write(".gitignore", "*.local.yaml\n")
	f.commit("Seed manifests")
	runGit(t, f.work, "push", "-q", "-u", "origin", branch)
	return f
}

func (f *gitFixture) write(name, content string) {
	p := filepath.Join(f.work, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

func (f *gitFixture) commit(msg string) string {
	runGit(f.t, f.work, "add", "-A")
	runGit(f.t, f.work, "commit", "-q", "-m", msg)
	return runGit(f.t, f.work, "rev-parse", "HEAD")
}

func (f *gitFixture) push(args ...string) {
	runGit(f.t, f.work, append([]string{"push", "-q", "origin", f.branch}, args...)...)
}

func (f *gitFixture) source(path string) Git {
	return Git{URL: f.bare, Ref: f.branch, Path: path, CacheDir: f.cache}
}

func mustSync(t *testing.T, g Git) Revision {
	t.Helper()
	rev, err := g.Sync(context.Background())
	if err != nil {
		t.Fatalf("Sync: %v", err)
	}
	return rev
}

func checkRev(t *testing.T, rev Revision, sha, subject string) {
	t.Helper()
	if rev.SHA != sha || rev.ShortSHA != sha[:7] || rev.Subject != subject {
		t.Errorf("revision = %s %q (short %s), want %s %q", rev.SHA, rev.Subject, rev.ShortSHA, sha, subject)
	}
}

func dirFiles(t *testing.T, dir string) []string {
	t.Helper()
	var names []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			names = append(names, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return names
}

func TestGitSyncLifecycle(t *testing.T) {
	f := newGitFixture(t, "main")
	g := f.source("manifests")
	seed := runGit(t, f.work, "rev-parse", "HEAD")

	rev := mustSync(t, g)
	checkRev(t, rev, seed, "Seed manifests")
	if rev.Author != "Ada <ada@example.com>" || rev.Time.IsZero() || time.Since(rev.Time) > time.Hour {
		t.Errorf("author %q time %v", rev.Author, rev.Time)
	}
	if !filepath.IsAbs(rev.Dir) || filepath.Base(rev.Dir) != "manifests" || !strings.HasPrefix(rev.Dir, f.cache) {
		t.Errorf("Dir = %s", rev.Dir)
	}
	if rev.Root != filepath.Dir(rev.Dir) || dirFiles(t, rev.Root)[0] != ".gitignore" {
		t.Errorf("Root = %s, Dir = %s", rev.Root, rev.Dir)
	}
	if got := strings.Join(dirFiles(t, rev.Dir), " "); got != "configmap.yaml deployment.yaml service.yaml" {
		t.Errorf("files = %s", got)
	}

	// A new commit is seen.
	f.write("manifests/configmap.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  color: green\n")
	sha := f.commit("Make it green")
	f.push()
	rev = mustSync(t, g)
	checkRev(t, rev, sha, "Make it green")
	if b, _ := os.ReadFile(filepath.Join(rev.Dir, "configmap.yaml")); !strings.Contains(string(b), "green") {
		t.Errorf("configmap.yaml not updated: %s", b)
	}

	// Local damage in the cache is repaired: modified, untracked and ignored files.
	os.WriteFile(filepath.Join(rev.Dir, "deployment.yaml"), []byte("garbage"), 0o644)
	os.WriteFile(filepath.Join(rev.Dir, "stray.yaml"), []byte("kind: Stray"), 0o644)
	os.WriteFile(filepath.Join(rev.Dir, "x.local.yaml"), []byte("kind: Ignored"), 0o644)
	os.MkdirAll(filepath.Join(rev.Dir, "extra", "deep"), 0o755)
	os.WriteFile(filepath.Join(rev.Dir, "extra", "deep", "a.yaml"), []byte("kind: A"), 0o644)

	// git rm upstream: the file disappears locally.
	runGit(t, f.work, "rm", "-q", "manifests/service.yaml")
	sha = f.commit("Drop the service")
	f.push()
	rev = mustSync(t, g)
	checkRev(t, rev, sha, "Drop the service")
	if got := strings.Join(dirFiles(t, rev.Dir), " "); got != "configmap.yaml deployment.yaml" {
		t.Errorf("after git rm, files = %s", got)
	}
	if b, _ := os.ReadFile(filepath.Join(rev.Dir, "deployment.yaml")); !strings.Contains(string(b), "Deployment") {
		t.Errorf("local modification survived: %s", b)
	}

	// git revert.
	runGit(t, f.work, "revert", "--no-edit", "HEAD")
	sha = runGit(t, f.work, "rev-parse", "HEAD")
	f.push()
	rev = mustSync(t, g)
	checkRev(t, rev, sha, `Revert "Drop the service"`)
	if _, err := os.Stat(filepath.Join(rev.Dir, "service.yaml")); err != nil {
		t.Errorf("reverted file missing: %v", err)
	}

	// Force-push a rewritten history: new commits replacing the last three.
	runGit(t, f.work, "reset", "-q", "--hard", seed)
	f.write("manifests/secretless.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: other\n")
	runGit(t, f.work, "rm", "-q", "manifests/configmap.yaml")
	sha = f.commit("Rewrite history")
	f.push("--force")
	rev = mustSync(t, g)
	checkRev(t, rev, sha, "Rewrite history")
	if got := strings.Join(dirFiles(t, rev.Dir), " "); got != "deployment.yaml secretless.yaml service.yaml" {
		t.Errorf("after force-push, files = %s", got)
	}

	// Force-push back to a commit the cache already has.
	runGit(t, f.work, "reset", "-q", "--hard", seed)
	f.push("--force")
	rev = mustSync(t, g)
	checkRev(t, rev, seed, "Seed manifests")
	if got := strings.Join(dirFiles(t, rev.Dir), " "); got != "configmap.yaml deployment.yaml service.yaml" {
		t.Errorf("after rewind, files = %s", got)
	}

	// A directory replaced by a file of the same name.
	runGit(t, f.work, "rm", "-q", "-r", "manifests")
	f.write("manifests", "not a directory any more\n")
	f.write("deploy/app.yaml", "kind: ConfigMap\n")
	sha = f.commit("Move manifests")
	f.push()
	rev = mustSync(t, f.source("deploy"))
	checkRev(t, rev, sha, "Move manifests")
	if got := strings.Join(dirFiles(t, filepath.Dir(rev.Dir)), " "); got != ".gitignore deploy/app.yaml manifests" {
		t.Errorf("after moving, checkout = %s", got)
	}
}

func TestGitSyncURLForms(t *testing.T) {
	f := newGitFixture(t, "main")
	sha := runGit(t, f.work, "rev-parse", "HEAD")
	rel, err := filepath.Rel(mustGetwd(t), f.bare)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{f.bare, "file://" + filepath.ToSlash(f.bare), rel, f.bare + "/"} {
		g := Git{URL: u, Ref: "main", CacheDir: f.cache}
		rev, err := g.Sync(context.Background())
		if err != nil {
			t.Errorf("%s: %v", u, err)
			continue
		}
		checkRev(t, rev, sha, "Seed manifests")
		if _, err := os.Stat(filepath.Join(rev.Dir, "manifests", "service.yaml")); err != nil {
			t.Errorf("%s: %v", u, err)
		}
	}
	// All spellings share one clone.
	if m, _ := filepath.Glob(filepath.Join(f.cache, "*.lock")); len(m) != 1 {
		t.Errorf("clones: %v", m)
	}
}

func mustGetwd(t *testing.T) string {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return wd
}

func TestGitSyncDefaultRef(t *testing.T) {
	f := newGitFixture(t, "trunk")
	sha := runGit(t, f.work, "rev-parse", "HEAD")
	rev, err := Git{URL: f.bare, CacheDir: f.cache}.Sync(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	checkRev(t, rev, sha, "Seed manifests")
	// refs/heads/ spelling.
	if _, err := (Git{URL: f.bare, Ref: "refs/heads/trunk", CacheDir: f.cache}).Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestGitSyncMissingBranch(t *testing.T) {
	f := newGitFixture(t, "main")
	runGit(t, f.work, "push", "-q", "origin", "main:dev")
	for i := 0; i < 2; i++ { // first with no clone, then with one
		_, err := Git{URL: f.bare, Ref: "nope", CacheDir: f.cache}.Sync(context.Background())
		if err == nil {
			t.Fatal("no error for a missing branch")
		}
		msg := err.Error()
		for _, want := range []string{f.bare, "nope", "not found", "dev, main"} {
			if !strings.Contains(msg, want) {
				t.Errorf("error %q does not mention %q", msg, want)
			}
		}
		mustSync(t, Git{URL: f.bare, Ref: "main", CacheDir: f.cache})
	}
	// A branch deleted upstream after it was cloned.
	mustSync(t, Git{URL: f.bare, Ref: "dev", CacheDir: f.cache})
	runGit(t, f.work, "push", "-q", "origin", ":dev")
	_, err := Git{URL: f.bare, Ref: "dev", CacheDir: f.cache}.Sync(context.Background())
	if err == nil || !strings.Contains(err.Error(), `branch "dev" not found; remote branches: main`) {
		t.Errorf("deleted branch: %v", err)
	}
	// A repository that does not exist.
	_, err = Git{URL: filepath.Join(t.TempDir(), "missing"), Ref: "main", CacheDir: f.cache}.Sync(context.Background())
	t.Log(err)
	if err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("missing repository: %v", err)
	}
}

func TestGitSyncPath(t *testing.T) {
	f := newGitFixture(t, "main")
	// go-git confines absolute symlink targets to the checkout; a relative
	// one can still climb out.
	if err := os.Symlink(strings.Repeat("../", 40)+"etc", filepath.Join(f.work, "escape")); err != nil {
		testkube.SkipUnlessCI(t, "cannot make symlinks here: "+err.Error())
	}
	if err := os.Symlink("manifests", filepath.Join(f.work, "inside")); err != nil {
		testkube.SkipUnlessCI(t, "cannot make symlinks here: "+err.Error())
	}
	f.commit("Add symlinks")
	f.push()
	for _, p := range []string{"../x", "manifests/../../x", "..", "/etc", "escape", "escape/x", ".git", "./.git/objects", "absent"} {
		_, err := f.source(p).Sync(context.Background())
		if err == nil {
			t.Errorf("path %q accepted", p)
			continue
		}
		t.Log(err)
		if !strings.Contains(err.Error(), f.bare) {
			t.Errorf("path %q: error %q does not name the URL", p, err)
		}
	}
	for _, p := range []string{"", ".", "manifests", "manifests/", "./manifests", "manifests/service.yaml", "inside"} {
		rev := mustSync(t, f.source(p))
		if _, err := os.Stat(rev.Dir); err != nil {
			t.Errorf("path %q: %v", p, err)
		}
	}
}

func TestGitSyncConcurrent(t *testing.T) {
	f := newGitFixture(t, "main")
	sha := runGit(t, f.work, "rev-parse", "HEAD")
	var wg sync.WaitGroup
	errs := make([]error, 3)
	revs := make([]Revision, 3)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			revs[i], errs[i] = f.source("manifests").Sync(context.Background())
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("goroutine %d: %v", i, err)
		} else if revs[i].SHA != sha {
			t.Errorf("goroutine %d: %s", i, revs[i].SHA)
		}
	}
}

func TestGitSyncLockHonorsContext(t *testing.T) {
	dir := t.TempDir()
	unlock, err := lockFile(context.Background(), filepath.Join(dir, "x.lock"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := lockFile(ctx, filepath.Join(dir, "x.lock")); err == nil {
		t.Fatal("second lock taken while held")
	}
	unlock()
	unlock2, err := lockFile(context.Background(), filepath.Join(dir, "x.lock"))
	if err != nil {
		t.Fatal(err)
	}
	unlock2()
}

func TestGitSyncDefaultCacheDir(t *testing.T) {
	f := newGitFixture(t, "main")
	cache := t.TempDir()
	t.Setenv("KUBEPLAN_CACHE_DIR", cache)
	rev := mustSync(t, Git{URL: f.bare, Ref: "main"})
	if !strings.HasPrefix(rev.Dir, filepath.Join(cache, "kubeplan", "git")+string(filepath.Separator)) {
		t.Errorf("Dir = %s, want under %s/kubeplan/git", rev.Dir, cache)
	}
}

// gitHTTPServer serves f.bare over smart HTTP through git http-backend,
// demanding basic auth user:pass when user is not empty.
func gitHTTPServer(t *testing.T, f *gitFixture, user, pass string) *httptest.Server {
	execPath := runGit(t, f.work, "--exec-path")
	backend := &cgi.Handler{
		Path: filepath.Join(execPath, "git-http-backend"),
		Env: []string{"GIT_PROJECT_ROOT=" + filepath.Dir(f.bare), "GIT_HTTP_EXPORT_ALL=1",
			"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=" + os.DevNull},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if u, p, ok := r.BasicAuth(); user != "" && (!ok || u != user || p != pass) {
			w.Header().Set("WWW-Authenticate", `Basic realm="git"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		backend.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestGitSyncHTTPCredentials(t *testing.T) {
	f := newGitFixture(t, "main")
	if _, err := os.Stat(filepath.Join(runGit(t, f.work, "--exec-path"), "git-http-backend")); err != nil {
		testkube.SkipUnlessCI(t, "git-http-backend is not installed (needed to serve a repository over https)")
	}
	const token = "s3cr3t-T0KEN"
	srv := gitHTTPServer(t, f, "robot", token)
	base := strings.Replace(srv.URL, "http://", "http://robot:"+token+"@", 1) + "/remote.git"
	sha := runGit(t, f.work, "rev-parse", "HEAD")

	rev := mustSync(t, Git{URL: base, Ref: "main", CacheDir: f.cache})
	checkRev(t, rev, sha, "Seed manifests")
	// The token is not stored in the clone's config.
	cfgs, _ := filepath.Glob(filepath.Join(f.cache, "*", ".git", "config"))
	for _, c := range cfgs {
		if b, _ := os.ReadFile(c); strings.Contains(string(b), token) {
			t.Errorf("%s holds the token:\n%s", c, b)
		}
	}
	f.write("manifests/new.yaml", "kind: ConfigMap\n")
	sha = f.commit("Add new")
	f.push()
	checkRev(t, mustSync(t, Git{URL: base, Ref: "main", CacheDir: f.cache}), sha, "Add new")

	wrong := strings.Replace(srv.URL, "http://", "http://robot:wrong-"+token+"@", 1) + "/remote.git"
	tokenOnly := strings.Replace(srv.URL, "http://", "http://"+token+"@", 1) + "/remote.git"
	for _, g := range []Git{
		{URL: wrong, Ref: "main", CacheDir: t.TempDir()},
		{URL: wrong, Ref: "main", CacheDir: f.cache}, // existing clone: fetch fails
		{URL: tokenOnly, Ref: "main", CacheDir: t.TempDir()},
		{URL: base, Ref: "nope", CacheDir: t.TempDir()},
		{URL: base, Ref: "main", Path: "../x", CacheDir: t.TempDir()},
		{URL: "https://robot:" + token + "@127.0.0.1:1/remote.git", Ref: "main", CacheDir: t.TempDir()},
		{URL: "https://" + token + "@127.0.0.1:1/remote.git", CacheDir: t.TempDir()},
		{URL: "https://robot:" + token + "@bad host/remote.git", Ref: "main", CacheDir: t.TempDir()},
		{URL: "ftp://robot:" + token + "@host/remote.git", Ref: "main", CacheDir: t.TempDir()},
	} {
		_, err := g.Sync(context.Background())
		if err == nil {
			t.Errorf("%s: no error", strings.ReplaceAll(g.URL, token, "TOKEN"))
			continue
		}
		msg := err.Error()
		if strings.Contains(msg, token) || strings.Contains(msg, "s3cr3t") {
			t.Errorf("error leaks the token: %s", msg)
		}
		if !strings.Contains(msg, "***@") {
			t.Errorf("error does not show the redacted URL: %s", msg)
		}
		t.Log(msg)
	}
}

func TestParseGitURL(t *testing.T) {
	for _, c := range []struct{ in, remote, display, key string }{
		{"https://GitHub.com/org/repo.git", "https://GitHub.com/org/repo.git", "https://GitHub.com/org/repo.git", "https://github.com/org/repo"},
		{"https://u:p4ss@github.com:443/org/repo/", "https://github.com:443/org/repo/", "https://***@github.com:443/org/repo/", "https://github.com/org/repo"},
		{"ssh://git@github.com/org/repo.git", "ssh://git@github.com/org/repo.git", "ssh://git@github.com/org/repo.git", "ssh://git@github.com/org/repo"},
		{"ssh://git:pw@host:2222/r", "ssh://git@host:2222/r", "ssh://git:***@host:2222/r", "ssh://git@host:2222/r"},
		{"git@github.com:org/repo.git", "git@github.com:org/repo.git", "git@github.com:org/repo.git", "scp:git@github.com:org/repo"},
		{"file:///srv/repo.git", "/srv/repo.git", "file:///srv/repo.git", "file:///srv/repo.git"},
		{"/srv/repo.git", "/srv/repo.git", "/srv/repo.git", "file:///srv/repo.git"},
	} {
		s, err := parseGitURL(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if s.remote != c.remote || s.display != c.display || s.key != c.key {
			t.Errorf("%s: remote %q display %q key %q, want %q %q %q", c.in, s.remote, s.display, s.key, c.remote, c.display, c.key)
		}
	}
	if _, err := parseGitURL(""); err == nil {
		t.Error("empty URL accepted")
	}
}

func TestGitSSHAuthWithoutAgentOrKeys(t *testing.T) {
	t.Setenv("SSH_AUTH_SOCK", "")
	t.Setenv("HOME", t.TempDir())
	_, err := Git{URL: "git@example.invalid:org/repo.git", Ref: "main", CacheDir: t.TempDir()}.Sync(context.Background())
	if err == nil || !strings.Contains(err.Error(), "git@example.invalid:org/repo.git") || !strings.Contains(err.Error(), "SSH agent") {
		t.Errorf("err = %v", err)
	}
}
