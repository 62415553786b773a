package health

import (
	"context"
	"slices"
	"time"

	"golang.org/x/sync/errgroup"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeplan/kubeplan/internal/kube"
)

// healthKey names one object of a REST resource.
type healthKey struct {
	gvr  schema.GroupVersionResource
	ns   string
	name string
}

// healthGroup is what the health checks read together: the objects of one
// resource in one namespace (one LIST, then one WATCH), or the pods of a
// namespace (to say why its workloads are not ready).
type healthGroup struct {
	gvr   schema.GroupVersionResource
	ns    string
	names map[string]bool // the objects waited for; nil for pods
	opts  metav1.ListOptions
}

// newHealthGroup reads names: one object by a field selector on its name,
// several by selector (the ApplySet's part-of label) or the whole namespace.
func newHealthGroup(gvr schema.GroupVersionResource, ns string, names []string, selector string) *healthGroup {
	g := &healthGroup{gvr: gvr, ns: ns, names: map[string]bool{}}
	for _, n := range names {
		g.names[n] = true
	}
	if len(g.names) == 1 {
		g.opts.FieldSelector = "metadata.name=" + names[0]
	} else {
		g.opts.LabelSelector = selector
	}
	return g
}

func (g *healthGroup) pods() bool { return g.names == nil }

// has reports whether u is one of g's objects (a read of namespace ""
// sees every namespace).
func (g *healthGroup) has(u *unstructured.Unstructured) bool {
	return g.names[u.GetName()] && u.GetNamespace() == g.ns
}

func (g *healthGroup) key(name string) healthKey { return healthKey{g.gvr, g.ns, name} }

// healthEvent is what a reader saw of a group: its whole content (listed),
// one change (typ and obj), or an error reading the group (name "") or one
// object.
type healthEvent struct {
	g      *healthGroup
	listed bool
	objs   []*unstructured.Unstructured
	typ    watch.EventType
	obj    *unstructured.Unstructured
	name   string
	err    error
}

// healthReader reads groups.
type healthReader struct {
	c        *kube.Client
	interval time.Duration
	events   chan healthEvent
}

func (r *healthReader) send(ctx context.Context, ev healthEvent) bool {
	select {
	case r.events <- ev:
		return true
	case <-ctx.Done():
		return false
	}
}

func healthSleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// healthCannotList reports whether err means this identity may not LIST or
// WATCH (it may still GET each object).
func healthCannotList(err error) bool {
	return apierrors.IsForbidden(err) || apierrors.IsMethodNotSupported(err)
}

// watch lists g, then watches it from the list's resourceVersion, and lists
// again when the watch ends, until ctx ends. When listing or watching is
// forbidden, it GETs each object every interval instead.
func (r *healthReader) watch(ctx context.Context, g *healthGroup) {
	res := r.c.Dynamic.Resource(g.gvr).Namespace(g.ns)
	for ctx.Err() == nil {
		l, err := res.List(ctx, g.opts)
		if err == nil {
			if !r.send(ctx, healthEvent{g: g, listed: true, objs: healthItems(l)}) {
				return
			}
			opts := g.opts
			opts.ResourceVersion, opts.AllowWatchBookmarks = l.GetResourceVersion(), true
			var wi watch.Interface
			if wi, err = res.Watch(ctx, opts); err == nil {
				r.follow(ctx, g, wi)
				continue
			}
		}
		if ctx.Err() != nil {
			return
		}
		if healthCannotList(err) && !g.pods() {
			r.poll(ctx, g)
			return
		}
		if !r.send(ctx, healthEvent{g: g, err: err}) || !healthSleep(ctx, r.interval) {
			return
		}
	}
}

// follow sends wi's changes until it ends (an Error event, such as 410
// Gone, ends it too: the caller lists again).
func (r *healthReader) follow(ctx context.Context, g *healthGroup, wi watch.Interface) {
	defer wi.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-wi.ResultChan():
			if !ok || ev.Type == watch.Error {
				return
			}
			u, isObj := ev.Object.(*unstructured.Unstructured)
			if !isObj || ev.Type == watch.Bookmark {
				continue
			}
			if !r.send(ctx, healthEvent{g: g, typ: ev.Type, obj: u}) {
				return
			}
		}
	}
}

// poll GETs each object of g every interval, until ctx ends.
func (r *healthReader) poll(ctx context.Context, g *healthGroup) {
	for {
		for _, ev := range r.getEach(ctx, g) {
			if !r.send(ctx, ev) {
				return
			}
		}
		if !healthSleep(ctx, r.interval) {
			return
		}
	}
}

// once reads g once: one LIST, or a GET per object when listing is
// forbidden.
func (r *healthReader) once(ctx context.Context, g *healthGroup) []healthEvent {
	l, err := r.c.Dynamic.Resource(g.gvr).Namespace(g.ns).List(ctx, g.opts)
	switch {
	case err == nil:
		return []healthEvent{{g: g, listed: true, objs: healthItems(l)}}
	case healthCannotList(err) && !g.pods():
		return r.getEach(ctx, g)
	}
	return []healthEvent{{g: g, err: err}}
}

// getEach GETs every object of g, a few at a time.
func (r *healthReader) getEach(ctx context.Context, g *healthGroup) []healthEvent {
	var names []string
	for n := range g.names {
		names = append(names, n)
	}
	slices.Sort(names)
	out := make([]healthEvent, len(names))
	var eg errgroup.Group
	eg.SetLimit(8)
	for i, name := range names {
		eg.Go(func() error {
			u, err := r.c.Dynamic.Resource(g.gvr).Namespace(g.ns).Get(ctx, name, metav1.GetOptions{})
			ev := healthEvent{g: g, name: name}
			switch {
			case err == nil:
				ev.typ, ev.obj = watch.Modified, u
			case apierrors.IsNotFound(err):
				ev.typ, ev.obj = watch.Deleted, &unstructured.Unstructured{}
				ev.obj.SetName(name)
				ev.obj.SetNamespace(g.ns)
			default:
				ev.err = err
			}
			out[i] = ev
			return nil
		})
	}
	_ = eg.Wait() // every call returns nil: errors are kept per object
	return out
}

func healthItems(l *unstructured.UnstructuredList) []*unstructured.Unstructured {
	out := make([]*unstructured.Unstructured, len(l.Items))
	for i := range l.Items {
		out[i] = &l.Items[i]
	}
	return out
}
