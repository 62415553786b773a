package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"

	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/source"
	"github.com/kubeplan/kubeplan/workspace"
)

// fetcher fetches the git source (once per round) and keeps the workspace
// of the revision it holds, opened again only when the revision changes.
type fetcher struct {
	git       source.Git
	overrides workspace.Overrides
	log       io.Writer // where a legacy config name is noticed

	mu  sync.Mutex
	rev source.Revision
	ws  *workspace.Workspace
	err error // the workspace's error at rev
	// good is the last revision whose projects were read, and goodPs are
	// its projects: whose parents hear of a failing source.
	good   source.Revision
	goodPs []project.Project
}

// checkout is a revision and what it holds.
type checkout struct {
	rev source.Revision
	ws  *workspace.Workspace
}

// fetch brings the checkout to the tip of the branch. The workspace is
// opened again when the commit changed (or opening it failed last time,
// for a transient error such as a file read).
func (s *fetcher) fetch(ctx context.Context) (checkout, error) {
	rev, err := s.git.Sync(ctx)
	if err != nil {
		return checkout{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ws == nil || s.err != nil || rev.SHA != s.rev.SHA {
		s.ws, s.err = s.open(rev.Dir, rev.Root)
		s.rev = rev
	}
	if s.err != nil {
		return checkout{rev: rev}, &configError{fmt.Errorf("reading the projects at %s: %w", short(rev.SHA), s.err)}
	}
	s.good = rev
	s.goodPs, _ = s.ws.Projects()
	return checkout{rev: rev, ws: s.ws}, nil
}

// revision is the last commit whose projects were read ("" before).
func (s *fetcher) revision() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.good.SHA
}

// known are the projects of that commit.
func (s *fetcher) known() []project.Project {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.goodPs
}

// open opens the workspace of a checkout: dir is the source's --path in
// it, checkoutRoot its root. Its projects are loaded now, so a broken
// kubeplan.yaml is the fetch's error.
func (s *fetcher) open(dir, checkoutRoot string) (*workspace.Workspace, error) {
	ws, err := workspace.Open(workspace.Options{Overrides: s.overrides, From: dir, Root: dir, Checkout: checkoutRoot,
		Legacy: func() { render.LegacyNotice(s.log) }})
	if err != nil {
		return nil, err
	}
	if _, err := ws.Projects(); err != nil {
		return nil, err
	}
	return ws, nil
}

// selected are the projects named (all when names is empty), sorted by
// path as project.Load returns them; a name that is no project is an
// error naming the projects there are.
func selected(root string, all []project.Project, names []string) ([]project.Project, error) {
	if len(names) == 0 {
		return all, nil
	}
	out, err := workspace.Named(all, all, names)
	var unknown *workspace.UnknownProjectsError
	if errors.As(err, &unknown) {
		return out, fmt.Errorf("no project named %s in %s; the projects are: %s", strings.Join(unknown.Missing, ", "), filepath.Base(root), strings.Join(unknown.Known, ", "))
	}
	return out, err
}
