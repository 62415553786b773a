package serve

import (
	"context"
	"sort"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

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
	// noEverywhere are the clusters where listing parents across all
	// namespaces was forbidden, until when not to try again.
	noEverywhere map[string]time.Time
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

// parentsKey is one kind of parent in one cluster; parentOf is one
// project's parent.
type parentsKey struct{ cluster, resource string }

type parentOf struct {
	p  project.Project
	as applyset.Parent
	c  *kube.Client
}

// pollSyncOnce reads the parents of serve's projects, metadata only (the
// parents carry the ApplySet id label; a Secret's data is never read), and
// runs at once those with a new request and those resumed since the last
// poll; it notes which are suspended (skipSuspended). See listParents for
// how many LISTs that is.
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
		k := parentsKey{p.Cluster(), as.Resource()}
		groups[k] = append(groups[k], parentOf{p, as, c})
	}
	var names, resumed, errs []string
	for k, g := range groups {
		annotations, lerrs := s.listParents(ctx, k, g)
		errs = append(errs, lerrs...)
		for _, po := range g {
			a, ok := annotations.by[po.as.Namespace+"/"+po.as.Name]
			if !ok && !annotations.complete(po.as.Namespace) {
				continue // its namespace could not be listed: nothing is known
			}
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

// parentAnnotations are the listed parents' annotations by
// "namespace/name"; listed says which namespaces were read (all when
// everywhere is set).
type parentAnnotations struct {
	by         map[string]map[string]string
	listed     map[string]bool
	everywhere bool
}

func (a parentAnnotations) complete(ns string) bool { return a.everywhere || a.listed[ns] }

// listParents lists the parents of one kind in one cluster, metadata
// only, by the ApplySet id label. Parents in one namespace take one LIST
// there; parents in several take one LIST across all namespaces (one
// request a poll however many projects serve has, instead of one per
// namespace), and when the identity may not list across namespaces, one
// LIST per namespace, which it is not asked again for an hour.
func (s *server) listParents(ctx context.Context, k parentsKey, g []parentOf) (parentAnnotations, []string) {
	out := parentAnnotations{by: map[string]map[string]string{}, listed: map[string]bool{}}
	nss := map[string]bool{}
	for _, po := range g {
		nss[po.as.Namespace] = true
	}
	res := g[0].c.Metadata.Resource(schema.GroupVersionResource{Version: "v1", Resource: k.resource})
	list := func(ns string) error {
		listedHook(k.cluster, ns)
		lctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		l, err := res.Namespace(ns).List(lctx, metav1.ListOptions{LabelSelector: applyset.LabelID})
		if err != nil {
			return err
		}
		for _, m := range l.Items {
			out.by[m.GetNamespace()+"/"+m.GetName()] = m.GetAnnotations()
		}
		return nil
	}
	if len(nss) > 1 && s.syncs.mayListEverywhere(k.cluster, time.Now()) {
		err := list(metav1.NamespaceAll)
		if err == nil {
			out.everywhere = true
			return out, nil
		}
		if !apierrors.IsForbidden(err) {
			return out, []string{err.Error()}
		}
		s.syncs.forbidEverywhere(k.cluster, time.Now())
	}
	var errs []string
	for ns := range nss {
		if err := list(ns); err != nil {
			errs = append(errs, err.Error())
			continue
		}
		out.listed[ns] = true
	}
	return out, errs
}

// listedHook is told of every LIST of parents (the namespace, "" for all);
// a test sets it.
var listedHook = func(cluster, namespace string) {}

// everywhereRetry is how long serve lists parents namespace by namespace
// after a LIST across all namespaces was forbidden.
const everywhereRetry = time.Hour

func (q *syncRequests) mayListEverywhere(cluster string, now time.Time) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	until, ok := q.noEverywhere[cluster]
	return !ok || now.After(until)
}

func (q *syncRequests) forbidEverywhere(cluster string, now time.Time) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.noEverywhere == nil {
		q.noEverywhere = map[string]time.Time{}
	}
	q.noEverywhere[cluster] = now.Add(everywhereRetry)
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
