package gitdirty

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// TestDirty: each change git status counts on a tracked file makes the
// work tree dirty, and nothing else does; go-git's Status (what kubeplan
// used before) agrees on every case but one it misses (git status shows
// a file removed from the index only as deleted, staged).
func TestDirty(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, r *git.Repository, dir string)
		dirty  bool
		// statusMisses: go-git's Status sees only an untracked file.
		statusMisses bool
	}{
		{"clean", func(*testing.T, *git.Repository, string) {}, false, false},
		{"touched only", func(t *testing.T, _ *git.Repository, dir string) {
			later := time.Now().Add(time.Hour)
			must(t, os.Chtimes(filepath.Join(dir, "a.yaml"), later, later))
		}, false, false},
		{"same bytes written again", func(t *testing.T, _ *git.Repository, dir string) {
			write(t, dir, "a.yaml", "a: 1\n")
		}, false, false},
		{"untracked file", func(t *testing.T, _ *git.Repository, dir string) {
			write(t, dir, "new.yaml", "n: 1\n")
		}, false, false},
		{"ignored file", func(t *testing.T, _ *git.Repository, dir string) {
			write(t, dir, "tmp/x.log", "x\n")
		}, false, false},
		{"changed, same size", func(t *testing.T, _ *git.Repository, dir string) {
			write(t, dir, "a.yaml", "a: 2\n")
		}, true, false},
		{"changed in a subdirectory", func(t *testing.T, _ *git.Repository, dir string) {
			write(t, dir, "sub/b.yaml", "b: 22\n")
		}, true, false},
		{"deleted", func(t *testing.T, _ *git.Repository, dir string) {
			must(t, os.Remove(filepath.Join(dir, "sub/b.yaml")))
		}, true, false},
		{"made executable", func(t *testing.T, _ *git.Repository, dir string) {
			must(t, os.Chmod(filepath.Join(dir, "a.yaml"), 0o755))
		}, true, false},
		{"symbolic link retargeted", func(t *testing.T, _ *git.Repository, dir string) {
			must(t, os.Remove(filepath.Join(dir, "link")))
			must(t, os.Symlink("sub/b.yaml", filepath.Join(dir, "link")))
		}, true, false},
		{"new file staged", func(t *testing.T, r *git.Repository, dir string) {
			write(t, dir, "new.yaml", "n: 1\n")
			add(t, r, "new.yaml")
		}, true, false},
		{"change staged", func(t *testing.T, r *git.Repository, dir string) {
			write(t, dir, "a.yaml", "a: 3\n")
			add(t, r, "a.yaml")
		}, true, false},
		{"change staged, then undone in the work tree", func(t *testing.T, r *git.Repository, dir string) {
			write(t, dir, "a.yaml", "a: 3\n")
			add(t, r, "a.yaml")
			write(t, dir, "a.yaml", "a: 1\n")
		}, true, false},
		{"removed from the index only", func(t *testing.T, r *git.Repository, dir string) {
			wt, err := r.Worktree()
			must(t, err)
			_, err = wt.Remove("a.yaml")
			must(t, err)
			write(t, dir, "a.yaml", "a: 1\n")
		}, true, true},
		{"changed in the instant the index was written", func(t *testing.T, r *git.Repository, dir string) {
			// Same size and modification time as the index records, but
			// the index is no older than the file: its content is read.
			idx, err := r.Storer.Index()
			must(t, err)
			e, err := idx.Entry("a.yaml")
			must(t, err)
			write(t, dir, "a.yaml", "a: 9\n")
			must(t, os.Chtimes(filepath.Join(dir, "a.yaml"), e.ModifiedAt, e.ModifiedAt))
			must(t, os.Chtimes(filepath.Join(dir, ".git", "index"), e.ModifiedAt, e.ModifiedAt))
		}, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, dir := repo(t)
			tc.change(t, r, dir)
			r, err := git.PlainOpen(dir) // the index as it is now
			must(t, err)
			got, err := Dirty(r)
			must(t, err)
			if got != tc.dirty {
				t.Errorf("Dirty = %v, want %v", got, tc.dirty)
			}
			if st := statusDirty(t, r); st != tc.dirty != tc.statusMisses {
				t.Errorf("go-git's Status says dirty = %v, want %v", st, tc.dirty)
			}
		})
	}
}

// TestDirtyWithoutCommit: a repository with no commit yet is dirty when
// something is staged.
func TestDirtyWithoutCommit(t *testing.T) {
	dir := t.TempDir()
	r, err := git.PlainInit(dir, false)
	must(t, err)
	write(t, dir, "a.yaml", "a: 1\n")
	if d, err := Dirty(r); err != nil || d {
		t.Errorf("nothing staged: Dirty = %v, %v", d, err)
	}
	add(t, r, "a.yaml")
	if d, err := Dirty(r); err != nil || !d {
		t.Errorf("a file staged: Dirty = %v, %v", d, err)
	}
}

// repo is a repository with one commit: a.yaml, sub/b.yaml, a symbolic
// link to a.yaml and a .gitignore of tmp/.
func repo(t *testing.T) (*git.Repository, string) {
	t.Helper()
	dir := t.TempDir()
	r, err := git.PlainInit(dir, false)
	must(t, err)
	write(t, dir, "a.yaml", "a: 1\n")
	write(t, dir, "sub/b.yaml", "b: 2\n")
	write(t, dir, ".gitignore", "tmp/\n")
	must(t, os.Symlink("a.yaml", filepath.Join(dir, "link")))
	add(t, r, ".")
	wt, err := r.Worktree()
	must(t, err)
	_, err = wt.Commit("first", &git.CommitOptions{Author: &object.Signature{Name: "t", Email: "t@example.com", When: time.Now()}})
	must(t, err)
	return r, dir
}

func statusDirty(t *testing.T, r *git.Repository) bool {
	t.Helper()
	wt, err := r.Worktree()
	must(t, err)
	st, err := wt.Status()
	must(t, err)
	for _, fs := range st {
		if fs.Worktree == git.Untracked && fs.Staging == git.Untracked {
			continue
		}
		if fs.Worktree != git.Unmodified || fs.Staging != git.Unmodified {
			return true
		}
	}
	return false
}

func add(t *testing.T, r *git.Repository, path string) {
	t.Helper()
	wt, err := r.Worktree()
	must(t, err)
	_, err = wt.Add(path)
	must(t, err)
}

func write(t *testing.T, dir, name, body string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	must(t, os.MkdirAll(filepath.Dir(p), 0o755))
	must(t, os.WriteFile(p, []byte(body), 0o644))
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
