package source

import (
	"fmt"
	"path/filepath"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/kubeplan/kubeplan/internal/gitdirty"
)

// ChangedPaths lists the paths (relative to the repository root, with
// "/") that differ between the revision ref and the work tree of the git
// repository holding dir: the commits from ref to HEAD and the uncommitted
// changes (untracked files included, ignored ones not: gitdirty.Changes).
// It also returns the repository's root, with symbolic links resolved.
func ChangedPaths(dir, ref string) (changed map[string]bool, repoRoot string, err error) {
	repo, err := git.PlainOpenWithOptions(dir, &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	if err != nil {
		return nil, "", fmt.Errorf("needs a git repository: %w", err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		return nil, "", fmt.Errorf("needs a work tree: %w", err)
	}
	from, err := treeOf(repo, plumbing.Revision(ref))
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", ref, err)
	}
	head, err := treeOf(repo, plumbing.Revision(plumbing.HEAD))
	if err != nil {
		return nil, "", fmt.Errorf("reading HEAD: %w", err)
	}
	diff, err := object.DiffTree(from, head)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", ref, err)
	}
	changed = map[string]bool{}
	for _, c := range diff {
		for _, n := range []string{c.From.Name, c.To.Name} {
			if n != "" {
				changed[n] = true
			}
		}
	}
	local, err := gitdirty.Changes(repo)
	if err != nil {
		return nil, "", err
	}
	for p := range local {
		changed[p] = true
	}
	repoRoot = wt.Filesystem.Root()
	if r, err := filepath.EvalSymlinks(repoRoot); err == nil {
		repoRoot = r
	}
	return changed, repoRoot, nil
}

func treeOf(repo *git.Repository, rev plumbing.Revision) (*object.Tree, error) {
	h, err := repo.ResolveRevision(rev)
	if err != nil {
		return nil, err
	}
	c, err := repo.CommitObject(*h)
	if err != nil {
		return nil, err
	}
	return c.Tree()
}
