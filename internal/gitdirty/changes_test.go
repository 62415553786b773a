package gitdirty

import (
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	git "github.com/go-git/go-git/v5"
)

// TestChanges: the paths git status shows, untracked ones included and
// ignored ones left out, are the paths go-git's Status shows, but for one
// .git/info/exclude ignores (go-git reads no file under .git; git does).
func TestChanges(t *testing.T) {
	r, dir := repo(t)
	write(t, dir, ".gitignore", "tmp/\n*.log\n!keep.log\n")
	write(t, dir, "sub/.gitignore", "local.yaml\n")
	write(t, dir, ".git/info/exclude", "scratch/\n")
	add(t, r, ".gitignore")
	add(t, r, "sub/.gitignore")
	write(t, dir, "a.yaml", "a: 2\n")              // changed
	must(t, os.Remove(filepath.Join(dir, "link"))) // deleted
	write(t, dir, "staged.yaml", "s: 1\n")         // staged
	add(t, r, "staged.yaml")                       //
	write(t, dir, "new/deep/n.yaml", "n: 1\n")     // untracked, in new directories
	write(t, dir, "sub/other.yaml", "o: 1\n")      // untracked
	write(t, dir, "keep.log", "k\n")               // untracked: re-included
	write(t, dir, "x.log", "x\n")                  // ignored
	write(t, dir, "sub/local.yaml", "l: 1\n")      // ignored by sub/.gitignore
	write(t, dir, "tmp/t.yaml", "t: 1\n")          // in an ignored directory
	write(t, dir, "scratch/s.yaml", "s: 1\n")      // ignored by info/exclude
	write(t, dir, "other/local.yaml", "l: 1\n")    // not ignored: sub's rule is sub's
	r, err := git.PlainOpen(dir)
	must(t, err)
	got, err := Changes(r)
	must(t, err)
	want := []string{".gitignore", "a.yaml", "keep.log", "link", "new/deep/n.yaml", "other/local.yaml", "staged.yaml", "sub/.gitignore", "sub/other.yaml"}
	if g := slices.Sorted(maps.Keys(got)); !slices.Equal(g, want) {
		t.Errorf("Changes = %q\nwant      %q", g, want)
	}
	if st := statusChanges(t, r); !slices.Equal(st, slices.Insert(slices.Clone(want), 6, "scratch/s.yaml")) {
		t.Errorf("go-git's Status = %q\nwant             %q", st, want)
	}
}

// TestChangesCachedTree: in a repository git itself committed, the index
// caches HEAD's tree, and HEAD's tree is not compared file by file; a
// change staged afterwards still shows.
func TestChangesCachedTree(t *testing.T) {
	dir := t.TempDir()
	gitCLI(t, dir, "init", "-q")
	write(t, dir, "a.yaml", "a: 1\n")
	write(t, dir, "sub/b.yaml", "b: 1\n")
	gitCLI(t, dir, "add", ".")
	gitCLI(t, dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "first")
	r, err := git.PlainOpen(dir)
	must(t, err)
	idx, err := r.Storer.Index()
	must(t, err)
	if idx.Cache == nil || len(idx.Cache.Entries) == 0 || idx.Cache.Entries[0].Entries != len(idx.Entries) {
		t.Fatalf("git left no valid cached tree: %+v", idx.Cache)
	}
	if got, err := Changes(r); err != nil || len(got) != 0 {
		t.Errorf("clean: Changes = %v, %v", got, err)
	}
	write(t, dir, "sub/b.yaml", "b: 2\n")
	gitCLI(t, dir, "add", "sub/b.yaml")
	r, err = git.PlainOpen(dir)
	must(t, err)
	if got, err := Changes(r); err != nil || !got["sub/b.yaml"] || len(got) != 1 {
		t.Errorf("staged: Changes = %v, %v", got, err)
	}
}

func gitCLI(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func statusChanges(t *testing.T, r *git.Repository) []string {
	t.Helper()
	wt, err := r.Worktree()
	must(t, err)
	st, err := wt.Status()
	must(t, err)
	var out []string
	for p, fs := range st {
		if fs.Worktree != git.Unmodified || fs.Staging != git.Unmodified {
			out = append(out, filepath.ToSlash(p))
		}
	}
	slices.Sort(out)
	return out
}
