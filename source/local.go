package source

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	git "github.com/go-git/go-git/v5"

	"github.com/kubeplan/kubeplan/internal/gitdirty"
)

// DirtySuffix marks the revision of a work tree with uncommitted changes.
const DirtySuffix = "+dirty"

// LocalRevision is the revision of the git repository holding path: its
// HEAD commit, with SHA and ShortSHA ending in "+dirty" when tracked files
// differ from HEAD (untracked files do not count). It returns nil, nil
// when path is not inside a git repository or the repository has no
// commit yet.
func LocalRevision(path string) (*Revision, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	repo, err := git.PlainOpenWithOptions(abs, &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	if errors.Is(err, git.ErrRepositoryNotExists) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the git repository of %s: %w", path, err)
	}
	head, err := repo.Head()
	if err != nil {
		return nil, nil // no commit yet
	}
	commit, err := repo.CommitObject(head.Hash())
	if err != nil {
		return nil, fmt.Errorf("reading HEAD of the git repository of %s: %w", path, err)
	}
	sha := head.Hash().String()
	rev := &Revision{SHA: sha, ShortSHA: sha[:shortSHALen], Subject: firstLine(commit.Message),
		Author: commit.Author.Name + " <" + commit.Author.Email + ">", Time: commit.Committer.When}
	if dirty, err := gitdirty.Dirty(repo); err == nil && dirty {
		rev.SHA += DirtySuffix
		rev.ShortSHA += DirtySuffix
	}
	return rev, nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(s)
}
