package serve

import (
	"context"
	"sort"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/internal/applyset"
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
// (project.ChangedSince). The last applied revision is that of the
// project's last successful run in this process, else the one its
// ApplySet parent records of a run that succeeded; a project with
// neither, or whose change cannot be computed, is counted as changed.
func (s *server) changedProjects(ctx context.Context, co checkout, ps []project.Project) []string {
	byRev := map[string][]project.Project{}
	var out []string
	for _, p := range ps {
		s.mu.Lock()
		rev, ok := s.applied[p.Name]
		s.mu.Unlock()
		if !ok {
			rev = s.parentRevision(ctx, p)
		}
		switch {
		case rev == "":
			out = append(out, p.Name)
		case rev != co.rev.SHA:
			byRev[rev] = append(byRev[rev], p)
		}
	}
	for rev, group := range byRev {
		changed, err := project.ChangedSince(co.ws.Root(), rev, group)
		if err != nil {
			s.logf("push: which projects changed since %s is unknown (%v): running the %d applied at it", short(rev), err, len(group))
			changed = group
		}
		run := map[string]bool{}
		for _, p := range changed {
			out = append(out, p.Name)
			run[p.Name] = true
		}
		// A project whose files did not change since rev is, at this
		// commit, what it was at rev: it counts as applied here, so the
		// next push compares it from here (one diff for all such projects,
		// not one per commit they were left at).
		for _, p := range group {
			if !run[p.Name] {
				s.appliedAt(p.Name, co.rev.SHA)
			}
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

// parentRevision is the revision p's ApplySet parent records when its
// last run succeeded; "" when it failed, or the parent cannot be read.
func (s *server) parentRevision(ctx context.Context, p project.Project) string {
	if p.ApplySet == "" {
		return ""
	}
	c, _, err := s.cls.Connector(p)
	if err != nil {
		return ""
	}
	parent, err := applyset.ParseParentFlag(p.ApplySet, c.Namespace)
	if err != nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, parentTimeout)
	defer cancel()
	gvr := schema.GroupVersionResource{Version: "v1", Resource: parent.Resource()}
	u, err := c.Dynamic.Resource(gvr).Namespace(parent.Namespace).Get(ctx, parent.Name, metav1.GetOptions{})
	if err != nil {
		return ""
	}
	a := u.GetAnnotations()
	if a[apply.AnnotationResult] != "ok" {
		return ""
	}
	return a[apply.AnnotationRevision]
}
