package manifest_test

import (
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/manifest/loader"
)

const cmDoc = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s\n"

func cmYAML(name string) string { return strings.Replace(cmDoc, "%s", name, 1) }

func write(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// within runs f and fails the test if it has not returned after 10 s: a
// FIFO or a device must be refused, never waited on.
func within(t *testing.T, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("still reading after 10 s: the input was waited on instead of refused")
	}
}

// loadBoth loads paths with Load and, as lint streams them, with Collect
// and each Source's MayHoldCRD and Load; it returns the first error of
// each way.
func loadBoth(t *testing.T, paths []string, opts loader.Options) (loadErr, streamErr error) {
	t.Helper()
	within(t, func() {
		_, loadErr = loader.Load(paths, opts)
		srcs, err := loader.Collect(paths, opts)
		if err != nil {
			streamErr = err
			return
		}
		for _, s := range srcs {
			if _, err := s.MayHoldCRD(); err != nil {
				streamErr = err
				return
			}
			if _, _, err := s.Load(); err != nil {
				streamErr = err
				return
			}
		}
	})
	return loadErr, streamErr
}

// wantRefused checks that both ways failed with ErrRefused and a message
// holding every part.
func wantRefused(t *testing.T, loadErr, streamErr error, parts ...string) {
	t.Helper()
	for _, err := range []error{loadErr, streamErr} {
		if !errors.Is(err, manifest.ErrRefused) {
			t.Fatalf("want a refusal, got %v", err)
		}
		for _, p := range parts {
			if !strings.Contains(err.Error(), p) {
				t.Errorf("error %q does not name %q", err, p)
			}
		}
	}
}

func TestSymlinkOutOfDirectoryRefused(t *testing.T) {
	tmp := t.TempDir()
	outside := filepath.Join(tmp, "outside.yaml")
	write(t, outside, cmYAML("secret-from-outside"))
	app := filepath.Join(tmp, "repo", "app")
	write(t, filepath.Join(app, "ok.yaml"), cmYAML("ok"))

	t.Run("relative", func(t *testing.T) {
		dir := filepath.Join(tmp, "repo", "rel")
		write(t, filepath.Join(dir, "ok.yaml"), cmYAML("ok"))
		symlink(t, "../../outside.yaml", filepath.Join(dir, "link.yaml"))
		le, se := loadBoth(t, []string{dir}, loader.Options{})
		wantRefused(t, le, se, filepath.Join(dir, "link.yaml"), outside)
	})
	t.Run("absolute", func(t *testing.T) {
		dir := filepath.Join(tmp, "repo", "abs")
		symlink(t, outside, filepath.Join(dir, "link.yaml"))
		le, se := loadBoth(t, []string{dir}, loader.Options{})
		wantRefused(t, le, se, filepath.Join(dir, "link.yaml"), outside)
	})
	t.Run("outside Options.Root", func(t *testing.T) {
		// inside the argument's parent, but not inside the root given
		dir := filepath.Join(tmp, "repo", "rooted")
		symlink(t, "../app/ok.yaml", filepath.Join(dir, "in-repo.yaml"))
		symlink(t, "../../outside.yaml", filepath.Join(dir, "out.yaml"))
		le, se := loadBoth(t, []string{dir}, loader.Options{Root: filepath.Join(tmp, "repo")})
		wantRefused(t, le, se, filepath.Join(dir, "out.yaml"), outside)
	})
	t.Run("argument outside Options.Root", func(t *testing.T) {
		le, se := loadBoth(t, []string{outside}, loader.Options{Root: filepath.Join(tmp, "repo")})
		wantRefused(t, le, se, outside)
	})
}

func TestSymlinkInsideRootRead(t *testing.T) {
	tmp := t.TempDir()
	repo := filepath.Join(tmp, "repo")
	write(t, filepath.Join(repo, "shared", "cm.yaml"), cmYAML("shared"))
	write(t, filepath.Join(repo, "app", "real", "cm.yaml"), cmYAML("real"))
	symlink(t, "real/cm.yaml", filepath.Join(repo, "app", "link.yaml"))
	symlink(t, "../shared/cm.yaml", filepath.Join(repo, "app", "up.yaml"))

	res, err := loader.Load([]string{filepath.Join(repo, "app")}, loader.Options{Root: repo})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, o := range res.Objects {
		names = append(names, o.Name)
	}
	if got := strings.Join(names, ","); got != "real,real,shared" {
		t.Fatalf("objects %s, want real,real,shared (link.yaml, real/cm.yaml, up.yaml)", got)
	}
	// Without Root the directory is its own root: up.yaml leaves it.
	_, err = loader.Load([]string{filepath.Join(repo, "app")}, loader.Options{})
	if !errors.Is(err, manifest.ErrRefused) || !strings.Contains(err.Error(), "up.yaml") {
		t.Fatalf("want up.yaml refused without Root, got %v", err)
	}
	// A file argument is read as named, wherever it points.
	res, err = loader.Load([]string{filepath.Join(repo, "app", "up.yaml")}, loader.Options{})
	if err != nil || len(res.Objects) != 1 {
		t.Fatalf("file argument: %v %v", res, err)
	}
}

func TestDevZeroRefused(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		testkube.SkipUnlessCI(t, "no /dev/zero on this machine")
	}
	dir := t.TempDir()
	link := filepath.Join(dir, "zero.yaml")
	symlink(t, "/dev/zero", link)
	// In a directory: it leaves the directory.
	le, se := loadBoth(t, []string{dir}, loader.Options{})
	wantRefused(t, le, se, link, "/dev/zero")
	// Named as an argument: read as named, so refused as a device.
	le, se = loadBoth(t, []string{link}, loader.Options{})
	wantRefused(t, le, se, link, "character device")
}

func TestFIFORefused(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "ok.yaml"), cmYAML("ok"))
	fifo := filepath.Join(dir, "x.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		testkube.SkipUnlessCI(t, "cannot make a FIFO here: "+err.Error())
	}
	le, se := loadBoth(t, []string{dir}, loader.Options{})
	wantRefused(t, le, se, fifo, "named pipe")
	le, se = loadBoth(t, []string{fifo}, loader.Options{})
	wantRefused(t, le, se, fifo, "named pipe")
}

func TestOversizedFileRefusedBeforeReading(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.yaml")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	// sparse: refused by its size, not by reading it
	if err := f.Truncate(manifest.MaxFileBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	le, se := loadBoth(t, []string{dir}, loader.Options{})
	wantRefused(t, le, se, big, "MiB")
}

// endless is /dev/zero as a reader.
type endless struct{ n atomic.Int64 }

func (e *endless) Read(p []byte) (int, error) {
	clear(p)
	e.n.Add(int64(len(p)))
	return len(p), nil
}

func TestStdinLimited(t *testing.T) {
	for name, run := range map[string]func(io.Reader) error{
		"Load": func(r io.Reader) error {
			_, err := loader.Load([]string{"-"}, loader.Options{Stdin: r})
			return err
		},
		"Collect": func(r io.Reader) error {
			_, err := loader.Collect([]string{"-"}, loader.Options{Stdin: r})
			return err
		},
	} {
		t.Run(name, func(t *testing.T) {
			in := &endless{}
			var err error
			within(t, func() { err = run(in) })
			if !errors.Is(err, manifest.ErrRefused) || !strings.Contains(err.Error(), "standard input") {
				t.Fatalf("want standard input refused, got %v", err)
			}
			if n := in.n.Load(); n > manifest.MaxFileBytes+64<<10 {
				t.Fatalf("read %d bytes of an endless input; the limit is %d", n, manifest.MaxFileBytes)
			}
		})
	}
}

// kustomizeProblem loads dir (a kustomization) and returns its one problem.
func kustomizeProblem(t *testing.T, dir string, opts loader.Options) *manifest.Problem {
	t.Helper()
	var res *loader.Result
	var err error
	within(t, func() { res, err = loader.Load([]string{dir}, opts) })
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Problems) != 1 || len(res.Objects) != 0 {
		t.Fatalf("want one problem and no objects, got %v and %d objects", res.Problems, len(res.Objects))
	}
	if res.Problems[0].Rule != "kustomize" {
		t.Fatalf("rule %q, want kustomize", res.Problems[0].Rule)
	}
	return res.Problems[0]
}

func TestKustomizeSymlinkOutRefused(t *testing.T) {
	tmp := t.TempDir()
	outside := filepath.Join(tmp, "outside.yaml")
	write(t, outside, cmYAML("secret-from-outside"))
	write(t, filepath.Join(tmp, "outbase", "kustomization.yaml"), "resources:\n- cm.yaml\n")
	write(t, filepath.Join(tmp, "outbase", "cm.yaml"), cmYAML("from-outside-base"))
	repo := filepath.Join(tmp, "repo")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}

	t.Run("file through a symlink", func(t *testing.T) {
		dir := filepath.Join(repo, "file")
		write(t, filepath.Join(dir, "kustomization.yaml"), "resources:\n- link.yaml\n")
		symlink(t, "../../outside.yaml", filepath.Join(dir, "link.yaml"))
		p := kustomizeProblem(t, dir, loader.Options{})
		if !strings.Contains(p.Message, "link.yaml") || !strings.Contains(p.Message, outside) {
			t.Fatalf("message %q does not name the link and its target", p.Message)
		}
		wantAt(t, p, filepath.Join(dir, "kustomization.yaml"), 2, 3)
	})
	t.Run("base through a symlink", func(t *testing.T) {
		dir := filepath.Join(repo, "base")
		write(t, filepath.Join(dir, "kustomization.yaml"), "resources:\n- linked\n")
		symlink(t, filepath.Join(tmp, "outbase"), filepath.Join(dir, "linked"))
		p := kustomizeProblem(t, dir, loader.Options{})
		if !strings.Contains(p.Message, filepath.Join(tmp, "outbase")) || !strings.Contains(p.Message, "outside") {
			t.Fatalf("message %q does not say the base is outside", p.Message)
		}
		wantAt(t, p, filepath.Join(dir, "kustomization.yaml"), 2, 3)
	})
	t.Run("../ beyond the repository", func(t *testing.T) {
		dir := filepath.Join(repo, "up")
		write(t, filepath.Join(dir, "kustomization.yaml"), "resources:\n- ../../outbase\n")
		p := kustomizeProblem(t, dir, loader.Options{})
		if !strings.Contains(p.Message, "outbase") || !strings.Contains(p.Message, "outside "+repo) {
			t.Fatalf("message %q does not say outbase is outside the repository", p.Message)
		}
		wantAt(t, p, filepath.Join(dir, "kustomization.yaml"), 2, 3)
	})
	t.Run("in a base, at the base's entry", func(t *testing.T) {
		write(t, filepath.Join(repo, "b2", "kustomization.yaml"), "resources:\n- cm.yaml\n- link.yaml\n")
		write(t, filepath.Join(repo, "b2", "cm.yaml"), cmYAML("b2"))
		symlink(t, outside, filepath.Join(repo, "b2", "link.yaml"))
		dir := filepath.Join(repo, "o2")
		write(t, filepath.Join(dir, "kustomization.yaml"), "resources:\n- ../b2\n")
		p := kustomizeProblem(t, dir, loader.Options{})
		wantAt(t, p, filepath.Join(dir, "..", "b2", "kustomization.yaml"), 3, 3)
	})
	t.Run("kustomization file through a symlink", func(t *testing.T) {
		dir := filepath.Join(repo, "kfile")
		symlink(t, filepath.Join(tmp, "outbase", "kustomization.yaml"), filepath.Join(dir, "kustomization.yaml"))
		p := kustomizeProblem(t, dir, loader.Options{})
		if !strings.Contains(p.Message, "outside") {
			t.Fatalf("message %q", p.Message)
		}
	})
	t.Run("../ inside the repository is read", func(t *testing.T) {
		write(t, filepath.Join(repo, "shared", "kustomization.yaml"), "resources:\n- cm.yaml\n")
		write(t, filepath.Join(repo, "shared", "cm.yaml"), cmYAML("shared"))
		dir := filepath.Join(repo, "overlay")
		write(t, filepath.Join(dir, "kustomization.yaml"), "namePrefix: o-\nresources:\n- ../shared\n")
		res, err := loader.Load([]string{dir}, loader.Options{})
		if err != nil || len(res.Problems) != 0 || len(res.Objects) != 1 || res.Objects[0].Name != "o-shared" {
			t.Fatalf("got %v %v", res, err)
		}
	})
}

// wantAt checks a problem's place; files are compared resolved.
func wantAt(t *testing.T, p *manifest.Problem, file string, line, col int) {
	t.Helper()
	got, _ := filepath.EvalSymlinks(p.File)
	want, _ := filepath.EvalSymlinks(file)
	if got != want || p.Line != line || p.Col != col {
		t.Errorf("problem at %s:%d:%d, want %s:%d:%d", p.File, p.Line, p.Col, file, line, col)
	}
}

// silentServer accepts connections and never answers; it counts them.
func silentServer(t *testing.T) (url string, conns *atomic.Int64) {
	t.Helper()
	conns = &atomic.Int64{}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(func() {
		srv.CloseClientConnections() // the handlers wait for their connection
		srv.Close()
	})
	return srv.URL, conns
}

func TestKustomizeRemoteRefused(t *testing.T) {
	url, conns := silentServer(t)
	host := strings.TrimPrefix(url, "http://")
	cases := map[string]struct {
		entry string
		line  int
		col   int
	}{
		"http file":  {"- " + url + "/deploy.yaml", 3, 3},
		"git https":  {"- https://" + host + "/org/repo//deploy?ref=v1", 3, 3},
		"git scp":    {"- git@" + host + ":org/repo//deploy?ref=v1", 3, 3},
		"github":     {"- github.com/org/repo//deploy?ref=v1", 3, 3},
		"forced git": {"- git::" + url + "/org/repo", 3, 3},
		"patch path": {"patches:\n- path: " + url + "/patch.yaml", 5, 9},
		"generator":  {"configMapGenerator:\n- name: c\n  files:\n  - k=" + url + "/f", 7, 5},
	}
	for name, c := range cases {
		for _, allow := range []bool{false, true} {
			t.Run(name, func(t *testing.T) {
				dir := t.TempDir()
				kust := "resources:\n- cm.yaml\n" + c.entry + "\n"
				if !strings.HasPrefix(c.entry, "- ") {
					kust = "resources:\n- cm.yaml\n- cm2.yaml\n" + c.entry + "\n"
					write(t, filepath.Join(dir, "cm2.yaml"), cmYAML("two"))
				}
				write(t, filepath.Join(dir, "kustomization.yaml"), kust)
				write(t, filepath.Join(dir, "cm.yaml"), cmYAML("one"))
				p := kustomizeProblem(t, dir, loader.Options{AllowRemote: allow})
				if p.File != filepath.Join(dir, "kustomization.yaml") || p.Line != c.line || p.Col != c.col {
					t.Errorf("at %s:%d:%d, want the entry at %d:%d", p.File, p.Line, p.Col, c.line, c.col)
				}
				if !strings.Contains(p.Message, "remote kustomize resource") || !strings.Contains(p.Message, "vendor") {
					t.Errorf("message %q", p.Message)
				}
			})
		}
	}
	t.Run("nested base", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(dir, "overlay", "kustomization.yaml"), "resources:\n- ../base\n")
		write(t, filepath.Join(dir, "base", "kustomization.yaml"), "resources:\n- "+url+"/x.yaml\n")
		p := kustomizeProblem(t, filepath.Join(dir, "overlay"), loader.Options{})
		if p.File != filepath.Join(dir, "base", "kustomization.yaml") || p.Line != 2 || !strings.Contains(p.Message, url+"/x.yaml") {
			t.Errorf("got %v", p)
		}
	})
	if n := conns.Load(); n != 0 {
		t.Fatalf("the test server saw %d connection(s); remote resources must not be fetched at all", n)
	}
}
