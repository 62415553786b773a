package serve

import (
	"context"
	"sort"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/run"
)

// syncPollEvery is how often serve looks for sync requests (kubeplan
// sync --via-serve) on its projects' parents.
var syncPollEvery = 5 * time.Second

// syncRequests are the requests serve took (apply.AnnotationSyncRequested),
// by project, until their run answers them.
type syncRequests struct {
	mu      sync.Mutex
	taken   map[string]syncRequest // project -> the request its next run answers
	lastErr string                 // the last poll's error, logged once
	// suspended are the projects whose parent the last poll found
	// suspended, with the suspension (suspend.go skips them).
	suspended map[string]suspendedSeen
}

type syncRequest struct {
	at     string // the request's time, as recorded
	parent applyset.Parent
	seen   time.Time // when serve took it: a run that began before does not answer it
}

// take notes the request at on p's parent, reporting whether it is new.
func (q *syncRequests) take(p string, at string, parent applyset.Parent, now time.Time) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.taken == nil {
		q.taken = map[string]syncRequest{}
	}
	if old, ok := q.taken[p]; ok && apply.SameOrLater(old.at, at) {
		return false
	}
	q.taken[p] = syncRequest{at: at, parent: parent, seen: now}
	return true
}

// done is the request a run of p that began at start answers.
func (q *syncRequests) done(p string, start time.Time) (syncRequest, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	r, ok := q.taken[p]
	if !ok || start.Before(r.seen) {
		return syncRequest{}, false
	}
	delete(q.taken, p)
	return r, true
}

// startSyncPoll starts pollSyncRequests until ctx ends; the function it
// returns waits for the poll to stop.
func (s *server) startSyncPoll(ctx context.Context) (wait func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.pollSyncRequests(ctx)
	}()
	return func() { <-done }
}

// pollSyncRequests looks for sync requests every syncPollEvery until ctx
// ends, and runs the projects asked for at once (runNow).
func (s *server) pollSyncRequests(ctx context.Context) {
	t := time.NewTicker(syncPollEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			s.pollSyncOnce(ctx)
		}
	}
}

// parentsKey is one LIST: the parents of one kind in one namespace of
// one cluster.
type parentsKey struct{ cluster, namespace, resource string }

type parentOf struct {
	p  project.Project
	as applyset.Parent
	c  *kube.Client
}

// pollSyncOnce reads the parents of serve's projects, one metadata-only
// LIST per cluster, namespace and kind (parents carry the ApplySet id
// label; a Secret's data is never read), and runs at once those with a
// new request and those resumed since the last poll; it notes which are
// suspended (skipSuspended). With 100 projects in a few namespaces it is
// a few requests.
func (s *server) pollSyncOnce(ctx context.Context) {
	groups := map[parentsKey][]parentOf{}
	for _, p := range s.currentProjects() {
		c, _, err := s.cls.Connector(p)
		if err != nil {
			continue // the round reports it
		}
		ns := c.Namespace
		if p.Namespace != "" {
			ns = p.Namespace
		}
		as, err := applyset.ParseParentFlag(p.ApplySet, ns)
		if err != nil || p.ApplySet == "" {
			continue
		}
		k := parentsKey{p.Cluster(), as.Namespace, as.Resource()}
		groups[k] = append(groups[k], parentOf{p, as, c})
	}
	var names, resumed, errs []string
	for k, g := range groups {
		lctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		list, err := g[0].c.Metadata.Resource(schema.GroupVersionResource{Version: "v1", Resource: k.resource}).Namespace(k.namespace).
			List(lctx, metav1.ListOptions{LabelSelector: applyset.LabelID})
		cancel()
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		annotations := map[string]map[string]string{}
		for _, m := range list.Items {
			annotations[m.GetName()] = m.GetAnnotations()
		}
		for _, po := range g {
			a := annotations[po.as.Name]
			if s.syncs.noteSuspension(po.p.Name, po.as, a[plan.AnnotationSuspended], time.Now()) {
				resumed = append(resumed, po.p.Name)
			}
			s.m.setSuspended(po.p.Name, a[plan.AnnotationSuspended] != "")
			if at := a[apply.AnnotationSyncRequested]; at != "" && s.syncs.take(po.p.Name, at, po.as, time.Now()) {
				names = append(names, po.p.Name)
			}
		}
	}
	s.noteSyncErrors(errs)
	if len(resumed) > 0 {
		sort.Strings(resumed)
		s.logf("resumed: %v; running now", resumed)
	}
	if len(names) > 0 {
		sort.Strings(names)
		s.logf("sync requested for %v: running now", names)
	}
	if all := append(names, resumed...); len(all) > 0 {
		s.runNow(all)
	}
}

// noteSyncErrors logs the poll's errors when they change.
func (s *server) noteSyncErrors(errs []string) {
	sort.Strings(errs)
	msg := ""
	if len(errs) > 0 {
		msg = errs[0]
	}
	s.syncs.mu.Lock()
	changed := msg != s.syncs.lastErr
	s.syncs.lastErr = msg
	s.syncs.mu.Unlock()
	if changed && msg != "" {
		s.logf("looking for sync requests: %s", msg)
	}
}

// currentProjects are the projects of the checkout the last round read.
func (s *server) currentProjects() []project.Project {
	s.src.mu.Lock()
	ws := s.src.ws
	s.src.mu.Unlock()
	if ws == nil {
		return nil
	}
	all, err := ws.Projects()
	if err != nil {
		return nil
	}
	ps, _ := selected(ws.Root(), all, s.o.Projects)
	return ps
}

// answerSync answers the sync request pr's run was for, on its parent
// (apply.AnswerSync): the result, and the error of a failed run.
func (s *server) answerSync(ctx context.Context, pr run.ProjectReport, res RunResult) {
	req, ok := s.syncs.done(pr.Project.Name, res.Start)
	if !ok {
		return
	}
	d := apply.SyncDone{Requested: req.at, By: s.o.Holder, At: time.Now().UTC().Format(time.RFC3339), Result: res.Outcome()}
	switch {
	case res.Suspended != "":
		d.Error = "suspended " + res.Suspended
	case res.Err != nil:
		d.Error = res.Err.Error()
	case pr.Status == run.Skipped:
		d.Result, d.Error = "skipped", pr.Error
	}
	c, _, err := s.cls.Connector(pr.Project)
	if err == nil {
		actx, cancel := context.WithTimeout(ctx, 30*time.Second)
		err = apply.AnswerSync(actx, c, req.parent, d)
		cancel()
	}
	if err != nil {
		s.logf("%s: %v", pr.Project.Name, err)
	}
}
