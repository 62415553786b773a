package cachedir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBase(t *testing.T) {
	t.Setenv("KUBEPLAN_CACHE_DIR", "rel/cache")
	if b, err := Base(); err != nil || !filepath.IsAbs(b) || !strings.HasSuffix(b, "rel/cache") {
		t.Errorf("KUBEPLAN_CACHE_DIR: %q %v", b, err)
	}
	// No HOME, no XDG dir: a private directory under the temp dir.
	tmp := t.TempDir()
	t.Setenv("KUBEPLAN_CACHE_DIR", "")
	t.Setenv("HOME", "")
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("TMPDIR", tmp)
	b, err := Base()
	if err != nil || !strings.HasPrefix(b, tmp) {
		t.Fatalf("no HOME: %q %v", b, err)
	}
	if fi, err := os.Stat(b); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("fallback dir mode: %v %v", fi.Mode(), err)
	}
	// A directory someone else could write is refused.
	os.Chmod(b, 0o777)
	if _, err := Base(); err == nil || !strings.Contains(err.Error(), "not a private directory") {
		t.Errorf("shared fallback dir accepted: %v", err)
	}
}
