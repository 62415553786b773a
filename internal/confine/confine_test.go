package confine_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/internal/confine"
)

const canary = "CANARY-confine-4b7e"

// tree is a resolved temporary directory with a checkout (repo, a git
// work tree) and beside it a canary file (outside/secret).
func tree(t *testing.T) (repo, outside string) {
	t.Helper()
	top, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	repo, outside = filepath.Join(top, "repo"), filepath.Join(top, "outside")
	for _, d := range []string{filepath.Join(repo, "sub"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	put(t, filepath.Join(outside, "secret"), canary)
	put(t, filepath.Join(repo, "sub", "ok.yaml"), "kind: ConfigMap\n")
	return repo, outside
}

func put(t *testing.T, p, body string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func link(t *testing.T, target, at string) {
	t.Helper()
	if err := os.Symlink(target, at); err != nil {
		t.Fatal(err)
	}
}

// refused runs read, which must end within 5 s with an error wrapping
// ErrRefused that contains want and never the canary.
func refused(t *testing.T, read func() ([]byte, error), want string) string {
	t.Helper()
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		d, err := read()
		done <- result{d, err}
	}()
	select {
	case r := <-done:
		if r.err == nil {
			t.Fatalf("read %q, want refused", r.data)
		}
		if bytes.Contains(r.data, []byte(canary)) || strings.Contains(r.err.Error(), canary) {
			t.Fatalf("the canary leaked: %v", r.err)
		}
		if !errors.Is(r.err, confine.ErrRefused) || !strings.Contains(r.err.Error(), want) {
			t.Fatalf("got %v, want a refusal containing %q", r.err, want)
		}
		return r.err.Error()
	case <-time.After(5 * time.Second):
		t.Fatal("still reading after 5 s: the input was waited on instead of refused")
	}
	return ""
}

func TestReadFileConfined(t *testing.T) {
	repo, outside := tree(t)
	secret := filepath.Join(outside, "secret")

	if data, err := confine.ReadFile(filepath.Join(repo, "sub", "ok.yaml"), repo); err != nil || string(data) != "kind: ConfigMap\n" {
		t.Fatalf("a file inside: %q, %v", data, err)
	}
	t.Run("absolute path outside", func(t *testing.T) {
		refused(t, func() ([]byte, error) { return confine.ReadFile(secret, repo) }, "resolves to "+secret+", outside "+repo)
	})
	t.Run("../ out", func(t *testing.T) {
		refused(t, func() ([]byte, error) {
			return confine.ReadFile(filepath.Join(repo, "sub", "..", "..", "outside", "secret"), repo)
		}, "outside "+repo)
	})
	t.Run("a link to a file outside", func(t *testing.T) {
		link(t, "../../outside/secret", filepath.Join(repo, "sub", "l1"))
		refused(t, func() ([]byte, error) { return confine.ReadFile(filepath.Join(repo, "sub", "l1"), repo) }, "resolves to "+secret)
	})
	t.Run("a file under a directory linked outside", func(t *testing.T) {
		link(t, outside, filepath.Join(repo, "dirlink"))
		refused(t, func() ([]byte, error) { return confine.ReadFile(filepath.Join(repo, "dirlink", "secret"), repo) }, "resolves to "+secret)
		refused(t, func() ([]byte, error) { return confine.ReadFile(filepath.Join(repo, "dirlink")+"/", repo) }, "resolves to "+outside)
	})
	t.Run("a chain of links", func(t *testing.T) {
		link(t, "c2", filepath.Join(repo, "c1"))
		link(t, secret, filepath.Join(repo, "c2"))
		refused(t, func() ([]byte, error) { return confine.ReadFile(filepath.Join(repo, "c1"), repo) }, "resolves to "+secret)
	})
	t.Run("/dev/zero", func(t *testing.T) {
		link(t, "/dev/zero", filepath.Join(repo, "zero"))
		refused(t, func() ([]byte, error) { return confine.ReadFile(filepath.Join(repo, "zero"), repo) }, "outside")
		// Not confined, it is still no regular file.
		refused(t, func() ([]byte, error) { return confine.ReadFile("/dev/zero", "") }, "a character device, not a regular file")
	})
	t.Run("a FIFO", func(t *testing.T) {
		fifo := filepath.Join(repo, "fifo")
		if err := syscall.Mkfifo(fifo, 0o644); err != nil {
			t.Fatal(err)
		}
		refused(t, func() ([]byte, error) { return confine.ReadFile(fifo, repo) }, "a named pipe (FIFO), not a regular file")
	})
	t.Run("a directory", func(t *testing.T) {
		refused(t, func() ([]byte, error) { return confine.ReadFile(filepath.Join(repo, "sub"), repo) }, "a directory, not a regular file")
	})
	t.Run("over the limit, checked before reading", func(t *testing.T) {
		big := filepath.Join(repo, "big")
		put(t, big, strings.Repeat("x", 101))
		refused(t, func() ([]byte, error) { return confine.ReadFileLimit(big, repo, 100) }, "over 100 bytes")
		if data, err := confine.ReadFileLimit(big, repo, 101); err != nil || len(data) != 101 {
			t.Fatalf("at the limit: %d bytes, %v", len(data), err)
		}
	})
}

// TestRefusalSaysNothingOfExistence: a link to something outside that
// does not exist is refused in the same words as one to a file that does.
func TestRefusalSaysNothingOfExistence(t *testing.T) {
	repo, outside := tree(t)
	cases := map[string]string{
		"file":                    filepath.Join(outside, "secret"),
		"missing file":            filepath.Join(outside, "missing"),
		"file in a missing dir":   filepath.Join(outside, "nodir", "secret"),
		"missing via a dir link":  "dirlink/missing",
		"existing via a dir link": "dirlink/secret",
	}
	link(t, outside, filepath.Join(repo, "dirlink"))
	for name, target := range cases {
		t.Run(name, func(t *testing.T) {
			p := target
			if !filepath.IsAbs(p) {
				p = filepath.Join(repo, p)
			} else {
				p = filepath.Join(repo, "link-"+strings.ReplaceAll(name, " ", "-"))
				link(t, target, p)
			}
			msg := refused(t, func() ([]byte, error) { return confine.ReadFile(p, repo) }, "outside "+repo)
			if strings.Contains(msg, "no such file") || strings.Contains(msg, "not exist") {
				t.Fatalf("the refusal tells whether the target exists: %s", msg)
			}
			if err := confine.Within(p, repo); !errors.Is(err, confine.ErrRefused) {
				t.Fatalf("Within: %v, want refused", err)
			}
		})
	}
	// Inside, a missing path is no refusal: reading it says it is missing.
	if err := confine.Within(filepath.Join(repo, "sub", "not-yet.yaml"), repo); err != nil {
		t.Fatalf("Within of a missing path inside: %v", err)
	}
	if _, err := confine.ReadFile(filepath.Join(repo, "sub", "not-yet.yaml"), repo); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("reading a missing path inside: %v", err)
	}
}

// endless is a reader that never ends, counting what was read.
type endless struct{ n int64 }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	e.n += int64(len(p))
	return len(p), nil
}

func TestReadLimitedStops(t *testing.T) {
	r := &endless{}
	_, err := confine.ReadLimited("standard input", r)
	if !errors.Is(err, confine.ErrRefused) || !strings.Contains(err.Error(), "standard input") {
		t.Fatalf("got %v", err)
	}
	if r.n > confine.MaxFileBytes+1<<20 {
		t.Fatalf("read %d bytes of an endless input; the limit is %d", r.n, confine.MaxFileBytes)
	}
	if data, err := confine.ReadLimited("x", io.LimitReader(r, 10)); err != nil || len(data) != 10 {
		t.Fatalf("a short input: %d bytes, %v", len(data), err)
	}
}

func TestRootFor(t *testing.T) {
	repo, outside := tree(t)
	t.Chdir(filepath.Join(repo, "sub"))
	if top, err := confine.Checkout(); err != nil || top != repo {
		t.Fatalf("Checkout from a subdirectory = %q, %v; want the git work tree %s", top, err, repo)
	}
	for p, want := range map[string]string{
		".":             repo,
		"ok.yaml":       repo,
		"../other":      repo,
		"manifests/":    repo,
		outside:         "",
		"../../outside": "",
	} {
		if got := confine.RootFor(p); got != want {
			t.Errorf("RootFor(%q) = %q, want %q", p, got, want)
		}
	}
	// A path named inside the checkout is confined to it even when it is
	// a link out: that is what makes "manifests/" -> /etc refused.
	link(t, outside, filepath.Join(repo, "sub", "manifests"))
	if _, err := confine.Resolve("manifests/", confine.RootFor("manifests/")); !errors.Is(err, confine.ErrRefused) {
		t.Fatalf("manifests/ linked out: %v, want refused", err)
	}
	if got := confine.RepoTop(outside); got != "" {
		t.Errorf("RepoTop outside any repository = %q", got)
	}
}
