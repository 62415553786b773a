package gitdirty

import (
	"bufio"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// Changes lists the paths, relative to repo's work tree and with "/",
// that git status shows: tracked files that differ from HEAD (as Dirty
// finds them) and untracked files that no .gitignore nor
// .git/info/exclude ignores (a directory ignored is not looked into).
func Changes(repo *git.Repository) (map[string]bool, error) {
	out := map[string]bool{}
	if err := tracked(repo, func(p string) bool { out[p] = true; return true }); err != nil {
		return nil, err
	}
	idx, err := repo.Storer.Index()
	if err != nil {
		return nil, fmt.Errorf("reading the index: %w", err)
	}
	known := make(map[string]bool, len(idx.Entries))
	for _, e := range idx.Entries {
		known[e.Name] = true
	}
	wt, err := repo.Worktree()
	if err != nil {
		return nil, fmt.Errorf("reading the work tree: %w", err)
	}
	root := wt.Filesystem.Root()
	ps := readIgnore(filepath.Join(root, ".git", "info", "exclude"), nil)
	if err := untracked(root, nil, ps, known, out); err != nil {
		return nil, err
	}
	return out, nil
}

// untracked adds to out the files under dir (its path components below
// root) that are in no index entry and not ignored by ps and the
// .gitignore files from root down.
func untracked(root string, dir []string, ps []gitignore.Pattern, known, out map[string]bool) error {
	abs := filepath.Join(root, filepath.Join(dir...))
	ps = append(ps, readIgnore(filepath.Join(abs, ".gitignore"), dir)...)
	entries, err := os.ReadDir(abs)
	if err != nil {
		return fmt.Errorf("reading the work tree: %w", err)
	}
	m := gitignore.NewMatcher(ps)
	for _, e := range entries {
		if e.Name() == ".git" {
			continue
		}
		p := append(dir[:len(dir):len(dir)], e.Name())
		if m.Match(p, e.IsDir()) {
			continue
		}
		if e.IsDir() {
			if err := untracked(root, p, ps[:len(ps):len(ps)], known, out); err != nil {
				return err
			}
			continue
		}
		if name := path.Join(p...); !known[name] {
			out[name] = true
		}
	}
	return nil
}

// readIgnore reads the patterns of an ignore file in dir, as go-git's
// gitignore.ReadPatterns does; none when it cannot be read or is not a
// regular file (git does not follow a .gitignore that is a symbolic link,
// and kubeplan reads nothing a link leads to).
func readIgnore(file string, dir []string) []gitignore.Pattern {
	if fi, err := os.Lstat(file); err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	f, err := os.Open(file)
	if err != nil {
		return nil
	}
	defer f.Close()
	var ps []gitignore.Pattern
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if s := sc.Text(); !strings.HasPrefix(s, "#") && strings.TrimSpace(s) != "" {
			ps = append(ps, gitignore.ParsePattern(s, dir))
		}
	}
	return ps
}
