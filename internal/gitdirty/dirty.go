package gitdirty

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/kubeplan/kubeplan/internal/confine"
)

// Dirty reports whether a tracked file of repo's work tree, staged or not,
// differs from HEAD: added to or removed from the index, changed in it,
// changed, removed or changed mode in the work tree, or in a merge
// conflict. A repository without a commit is dirty when its index holds
// anything.
func Dirty(repo *git.Repository) (bool, error) {
	dirty := false
	err := tracked(repo, func(string) bool { dirty = true; return false })
	return dirty, err
}

// tracked calls visit with each tracked path that differs from HEAD (in
// the index, or in the work tree from the index) until it returns false;
// a path may come twice.
func tracked(repo *git.Repository, visit func(path string) bool) error {
	idx, err := repo.Storer.Index()
	if err != nil {
		return fmt.Errorf("reading the index: %w", err)
	}
	more, err := staged(repo, idx, visit)
	if err != nil || !more {
		return err
	}
	wt, err := repo.Worktree()
	if err != nil {
		return fmt.Errorf("reading the work tree: %w", err)
	}
	for _, e := range idx.Entries {
		if e.SkipWorktree || e.Mode == filemode.Submodule {
			continue
		}
		changed, err := fileDiffers(wt.Filesystem.Root(), idx, e)
		if err != nil {
			return err
		}
		if changed && !visit(e.Name) {
			return nil
		}
	}
	return nil
}

// staged compares HEAD's tree with the index (the same paths, each with
// the same blob and mode, nothing in conflict or only intended to be
// added) and calls visit with each path that differs, until it returns
// false (then more is false). An index whose cached tree is valid and is
// HEAD's tree holds HEAD's files: the tree is not walked.
func staged(repo *git.Repository, idx *index.Index, visit func(string) bool) (more bool, err error) {
	byName := make(map[string]*index.Entry, len(idx.Entries))
	for _, e := range idx.Entries {
		if e.Stage != 0 || e.IntentToAdd { // 0: not in a conflict
			if !visit(e.Name) {
				return false, nil
			}
			continue
		}
		byName[e.Name] = e
	}
	head, err := repo.Head()
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		for name := range byName { // no commit yet: everything is staged
			if !visit(name) {
				return false, nil
			}
		}
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("reading HEAD: %w", err)
	}
	commit, err := repo.CommitObject(head.Hash())
	if err != nil {
		return false, fmt.Errorf("reading HEAD: %w", err)
	}
	if c := idx.Cache; len(byName) == len(idx.Entries) && c != nil && len(c.Entries) > 0 &&
		c.Entries[0].Path == "" && c.Entries[0].Entries == len(idx.Entries) && c.Entries[0].Hash == commit.TreeHash {
		return true, nil
	}
	tree, err := commit.Tree()
	if err != nil {
		return false, fmt.Errorf("reading HEAD's tree: %w", err)
	}
	w := object.NewTreeWalker(tree, true, nil)
	defer w.Close()
	seen := make(map[string]bool, len(byName))
	for {
		name, te, err := w.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return false, fmt.Errorf("reading HEAD's tree: %w", err)
		}
		if te.Mode == filemode.Dir {
			continue
		}
		seen[name] = true
		if e := byName[name]; (e == nil || e.Hash != te.Hash || e.Mode != te.Mode) && !visit(name) {
			return false, nil
		}
	}
	for name := range byName {
		if !seen[name] && !visit(name) {
			return false, nil
		}
	}
	return true, nil
}

// fileDiffers compares the file of e with it: by its metadata when that
// matches the index, else by its content's blob hash and its mode.
func fileDiffers(root string, idx *index.Index, e *index.Entry) (bool, error) {
	path := filepath.Join(root, filepath.FromSlash(e.Name))
	fi, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) { // ENOTDIR: a directory above became a file
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("reading %s: %w", e.Name, err)
	}
	mode, err := filemode.NewFromOSFileMode(fi.Mode())
	if err != nil || mode != e.Mode {
		return true, nil // a directory or another type now, or its executable bit changed
	}
	if uint32(fi.Size()) != e.Size {
		return true, nil
	}
	mtime := fi.ModTime()
	if mtime.Equal(e.ModifiedAt) && (idx.ModTime.IsZero() || mtime.Before(idx.ModTime)) {
		return false, nil
	}
	if fi.Mode().IsRegular() {
		if _, err := confine.Resolve(path, root); err != nil {
			// a directory above it is now a link out of the work tree:
			// changed, and the file there is not read
			return true, nil
		}
	}
	h, err := blobHash(path, fi)
	if err != nil {
		return false, fmt.Errorf("reading %s: %w", e.Name, err)
	}
	return h != e.Hash, nil
}

// blobHash is the hash git gives the file's content (a symbolic link's
// target).
func blobHash(path string, fi os.FileInfo) (plumbing.Hash, error) {
	if fi.Mode()&os.ModeSymlink != 0 {
		target, err := os.Readlink(path)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		return plumbing.ComputeHash(plumbing.BlobObject, []byte(target)), nil
	}
	f, err := os.Open(path)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	defer f.Close()
	h := plumbing.NewHasher(plumbing.BlobObject, fi.Size())
	if _, err := io.Copy(h, f); err != nil {
		return plumbing.ZeroHash, err
	}
	return h.Sum(), nil
}
