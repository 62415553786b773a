package serve

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/source"
)

// fetcher fetches the git source (once per round) and keeps the workspace
// of the revision it holds, read again only when the revision changes.
type fetcher struct {
	git       source.Git
	workspace func(dir, repoRoot string) (*Workspace, error)

	mu  sync.Mutex
	rev source.Revision
	ws  *Workspace
	err error // the workspace's error at rev
}

// checkout is a revision and what it holds.
type checkout struct {
	rev source.Revision
	ws  *Workspace
}

// fetch brings the checkout to the tip of the branch. The workspace is
// read again when the commit changed (or reading it failed last time, for
// a transient error such as a file read).
func (s *fetcher) fetch(ctx context.Context) (checkout, error) {
	rev, err := s.git.Sync(ctx)
	if err != nil {
		return checkout{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ws == nil || s.err != nil || rev.SHA != s.rev.SHA {
		s.ws, s.err = s.workspace(rev.Dir, rev.Root)
		s.rev = rev
	}
	if s.err != nil {
		return checkout{rev: rev}, fmt.Errorf("reading the projects at %s: %w", short(rev.SHA), s.err)
	}
	return checkout{rev: rev, ws: s.ws}, nil
}

// selected are the projects named (all when names is empty), sorted by
// path as project.Load returns them; a name that is no project is an
// error naming the projects there are.
func selected(ws *Workspace, names []string) ([]project.Project, error) {
	if len(names) == 0 {
		return ws.Projects, nil
	}
	var out []project.Project
	var missing []string
	for _, n := range names {
		i := slices.IndexFunc(ws.Projects, func(p project.Project) bool { return p.Name == n })
		if i < 0 {
			missing = append(missing, n)
			continue
		}
		out = append(out, ws.Projects[i])
	}
	if len(missing) > 0 {
		var known []string
		for _, p := range ws.Projects {
			known = append(known, p.Name)
		}
		return out, fmt.Errorf("no project named %s in %s; the projects are: %s", strings.Join(missing, ", "), filepath.Base(ws.Root), strings.Join(known, ", "))
	}
	slices.SortFunc(out, func(a, b project.Project) int { return strings.Compare(a.Path, b.Path) })
	return out, nil
}
