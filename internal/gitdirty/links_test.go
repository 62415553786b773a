package gitdirty

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"
)

// A directory of the work tree replaced by a link out of it: the files
// the index has under it are changed, and what the link leads to is not
// read. The file outside has the very bytes of the committed one, so
// reading it would say "unchanged".
func TestDirtyDoesNotFollowALinkOut(t *testing.T) {
	r, dir := repo(t)
	outside := t.TempDir()
	write(t, outside, "b.yaml", "b: 2\n") // sub/b.yaml's content
	later := time.Now().Add(time.Hour)
	must(t, os.Chtimes(filepath.Join(outside, "b.yaml"), later, later))
	must(t, os.RemoveAll(filepath.Join(dir, "sub")))
	must(t, os.Symlink(outside, filepath.Join(dir, "sub")))
	r, err := git.PlainOpen(dir)
	must(t, err)
	if d, err := Dirty(r); err != nil || !d {
		t.Errorf("sub/ is a link out of the work tree: Dirty = %v, %v; want dirty", d, err)
	}
}

// A .gitignore that is a symbolic link is not read (git does not follow
// it either): its patterns do not hide untracked files.
func TestChangesDoesNotReadALinkedIgnoreFile(t *testing.T) {
	r, dir := repo(t)
	outside := t.TempDir()
	write(t, outside, "ignore", "*.yaml\n")
	must(t, os.MkdirAll(filepath.Join(dir, "apps"), 0o755))
	must(t, os.Symlink(filepath.Join(outside, "ignore"), filepath.Join(dir, "apps", ".gitignore")))
	write(t, dir, "apps/web.yaml", "w: 1\n")
	r, err := git.PlainOpen(dir)
	must(t, err)
	got, err := Changes(r)
	must(t, err)
	if !got["apps/web.yaml"] {
		t.Errorf("Changes = %v: apps/web.yaml was hidden by a .gitignore read through a link", slices.Sorted(func(yield func(string) bool) {
			for k := range got {
				if !yield(k) {
					return
				}
			}
		}))
	}
}
