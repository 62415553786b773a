package cachedir

import (
	"fmt"
	"os"
	"path/filepath"
)

// Base returns the absolute cache base directory; callers add
// "kubeplan/<what>" below it.
func Base() (string, error) {
	if d := os.Getenv("KUBEPLAN_CACHE_DIR"); d != "" {
		return filepath.Abs(d)
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Abs(d)
	}
	d := filepath.Join(os.TempDir(), fmt.Sprintf("kubeplan-cache-%d", os.Getuid()))
	if err := os.MkdirAll(d, 0o700); err != nil {
		return "", fmt.Errorf("cache directory: %w", err)
	}
	// The temp dir is shared: refuse a directory someone else planted.
	fi, err := os.Lstat(d)
	if err != nil {
		return "", fmt.Errorf("cache directory: %w", err)
	}
	if !fi.IsDir() || fi.Mode().Perm()&0o022 != 0 || !ownedByCurrentUser(fi) {
		return "", fmt.Errorf("cache directory %s is not a private directory of this user; set KUBEPLAN_CACHE_DIR", d)
	}
	return filepath.Abs(d)
}
