package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/internal/confine"
)

const canaryText = "CANARY-config-91c2"

// hostileRepo is a git repository beside a canary file outside it; it
// returns the repository and the canary's path.
func hostileRepo(t *testing.T) (repo, canary string) {
	t.Helper()
	top := tempDir(t)
	canary = filepath.Join(top, "outside", "token")
	write(t, canary, canaryText+"\n")
	repo = filepath.Join(top, "repo")
	gitRepo(t, repo)
	return repo, canary
}

// refusedWithin runs f, failing the test if it takes over 5 s or if its
// error is not a refusal or shows the canary.
func refusedWithin(t *testing.T, f func() error, want string) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("read, want refused")
		}
		if strings.Contains(err.Error(), canaryText) {
			t.Fatalf("the canary appears in the error: %v", err)
		}
		if !errors.Is(err, confine.ErrRefused) || !strings.Contains(err.Error(), want) {
			t.Fatalf("got %v, want a refusal saying %q", err, want)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("still reading after 5 s: the file was waited on instead of refused")
	}
}

func TestConfigFileConfined(t *testing.T) {
	t.Run("link to a file outside", func(t *testing.T) {
		repo, canary := hostileRepo(t)
		if err := os.Symlink(canary, filepath.Join(repo, DefaultFile)); err != nil {
			t.Fatal(err)
		}
		refusedWithin(t, func() error { _, err := Discover(repo); return err }, "outside "+repo)
	})
	t.Run("legacy name linked outside", func(t *testing.T) {
		repo, canary := hostileRepo(t)
		if err := os.Symlink("../outside/token", filepath.Join(repo, LegacyFile)); err != nil {
			t.Fatal(err)
		}
		refusedWithin(t, func() error { _, err := Discover(repo); return err }, "outside "+repo)
		_ = canary
	})
	t.Run("link to nothing outside is not taken for no config", func(t *testing.T) {
		repo, _ := hostileRepo(t)
		if err := os.Symlink("/nonexistent/kubeplan.yaml", filepath.Join(repo, DefaultFile)); err != nil {
			t.Fatal(err)
		}
		refusedWithin(t, func() error { _, err := Discover(repo); return err }, "outside "+repo)
	})
	t.Run("link to /dev/zero", func(t *testing.T) {
		repo, _ := hostileRepo(t)
		if err := os.Symlink("/dev/zero", filepath.Join(repo, DefaultFile)); err != nil {
			t.Fatal(err)
		}
		refusedWithin(t, func() error { _, err := Discover(repo); return err }, "/dev/zero")
	})
	t.Run("a FIFO", func(t *testing.T) {
		repo, _ := hostileRepo(t)
		if err := syscall.Mkfifo(filepath.Join(repo, DefaultFile), 0o644); err != nil {
			t.Fatal(err)
		}
		refusedWithin(t, func() error { _, err := Discover(repo); return err }, "named pipe")
	})
	t.Run("over MaxBytes", func(t *testing.T) {
		repo, _ := hostileRepo(t)
		write(t, filepath.Join(repo, DefaultFile), "# "+strings.Repeat("x", MaxBytes)+"\n")
		refusedWithin(t, func() error { _, err := Discover(repo); return err }, "over 1 MiB")
	})
	t.Run("explicit --config in the checkout linked out", func(t *testing.T) {
		repo, canary := hostileRepo(t)
		if err := os.Symlink(canary, filepath.Join(repo, "ci.yaml")); err != nil {
			t.Fatal(err)
		}
		t.Chdir(repo)
		refusedWithin(t, func() error { _, err := Load("ci.yaml", true); return err }, "outside "+repo)
	})
}

func TestConfigPathsConfined(t *testing.T) {
	for _, tc := range []struct {
		name, entry string
		setup       func(t *testing.T, repo, canary string)
	}{
		{"../ out of the repository", "../outside/token", nil},
		{"absolute elsewhere", "CANARY", nil},
		{"a link inside pointing out", "policies/link.yaml", func(t *testing.T, repo, canary string) {
			if err := os.MkdirAll(filepath.Join(repo, "policies"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(canary, filepath.Join(repo, "policies", "link.yaml")); err != nil {
				t.Fatal(err)
			}
		}},
		{"a directory linked out", "pols", func(t *testing.T, repo, canary string) {
			if err := os.Symlink(filepath.Dir(canary), filepath.Join(repo, "pols")); err != nil {
				t.Fatal(err)
			}
		}},
		{"a link to nothing outside", "gone.yaml", func(t *testing.T, repo, canary string) {
			if err := os.Symlink(canary+".missing", filepath.Join(repo, "gone.yaml")); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		for _, key := range []string{"crds", "policies"} {
			t.Run(key+"/"+tc.name, func(t *testing.T) {
				repo, canary := hostileRepo(t)
				entry := tc.entry
				if entry == "CANARY" {
					entry = canary
				}
				if tc.setup != nil {
					tc.setup(t, repo, canary)
				}
				write(t, filepath.Join(repo, DefaultFile), key+": ["+entry+"]\n")
				refusedWithin(t, func() error { _, err := Discover(repo); return err }, key+` entry "`+entry+`"`)
			})
		}
	}
	t.Run("inside, and missing, are kept", func(t *testing.T) {
		repo, _ := hostileRepo(t)
		write(t, filepath.Join(repo, "crds", "a.yaml"), "kind: CustomResourceDefinition\n")
		write(t, filepath.Join(repo, DefaultFile), "crds: [crds, not-yet.yaml]\npolicies: [crds/a.yaml]\n")
		c, err := Discover(repo)
		if err != nil {
			t.Fatal(err)
		}
		if len(c.CRDs) != 2 || len(c.Policies) != 1 || c.Root != repo {
			t.Fatalf("got %+v", c)
		}
	})
}
