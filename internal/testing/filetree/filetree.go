package filetree

import (
	"os"
	"path/filepath"
	"testing"
)

// Write creates each file of files (a slash path relative to dir, and its
// content) under dir, with the directories it needs; it fails the test on
// the first error.
func Write(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
