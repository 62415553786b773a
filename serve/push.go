package serve

import (
	"sort"
	"strings"

	"github.com/kubeplan/kubeplan/project"
)

// webhooks are serve's push webhooks: an accepted push calls onPush.
func (s *server) webhooks() *webhooks {
	return &webhooks{secretFile: s.o.WebhookSecretFile, branch: strings.TrimPrefix(s.o.Source.Ref, "refs/heads/"),
		m: s.m, pushed: s.onPush, logf: s.logf}
}

// onPush marks the source pushed and wakes the loop: its next round
// fetches and runs the projects the push changed (changedProjects). A
// burst of pushes is one round, and one run per project.
func (s *server) onPush(provider string, p push) {
	what := "a push"
	if p.branch != "" {
		what += " of " + p.branch
	}
	if p.commit != "" {
		what += " at " + short(p.commit)
	}
	s.logf("%s (%s webhook): fetching", what, provider)
	s.pushed.Store(true)
	s.wakeUp()
}

// changedProjects are the names of the projects of ps a change between
// each one's last applied revision and checkout co affects
// (project.ChangedSince); a project not applied yet by this process, or
// whose change cannot be computed, is counted as changed.
func (s *server) changedProjects(co checkout, ps []project.Project) []string {
	s.mu.Lock()
	byRev := map[string][]project.Project{}
	var out []string
	for _, p := range ps {
		rev, ok := s.applied[p.Name]
		switch {
		case !ok:
			out = append(out, p.Name)
		case rev != co.rev.SHA:
			byRev[rev] = append(byRev[rev], p)
		}
	}
	s.mu.Unlock()
	for rev, group := range byRev {
		changed, err := project.ChangedSince(co.ws.Root(), rev, group)
		if err != nil {
			s.logf("push: which projects changed since %s is unknown (%v): running the %d applied at it", short(rev), err, len(group))
			changed = group
		}
		for _, p := range changed {
			out = append(out, p.Name)
		}
	}
	sort.Strings(out)
	return out
}

// appliedAt records a project's successful run at rev.
func (s *server) appliedAt(name, rev string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.applied[name] = rev
}
