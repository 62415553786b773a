package orphans

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"sync"

	"golang.org/x/sync/errgroup"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/internal/ownership"
)

// concurrency bounds the LISTs in flight for one Find.
const concurrency = 8

// pageSize is the most objects one LIST returns; a namespace with more
// objects of one type takes more than one request.
const pageSize = 500

// Find lists every listable namespaced type in each of namespaces, once
// per type and namespace, metadata only, and returns the objects nobody
// manages. A type the identity may not list (or the server cannot list)
// is NotChecked; an error is returned only when discovery fails or ctx
// ends.
func Find(ctx context.Context, c *kube.Client, namespaces []string) (*Result, error) {
	types, notChecked, err := discovered(c)
	if err != nil {
		return nil, err
	}
	namespaces = slices.Compact(slices.Sorted(slices.Values(namespaces)))
	r := &Result{Namespaces: namespaces, NotChecked: notChecked}
	for _, ns := range namespaces {
		found, skipped, lists, err := inNamespace(ctx, c, ns, types)
		if err != nil {
			return nil, err
		}
		r.Objects = append(r.Objects, found...)
		r.NotChecked = append(r.NotChecked, skipped...)
		r.Lists += lists
	}
	return r, nil
}

// listed is one type's objects in one namespace.
type listed struct {
	t       resourceType
	items   []metav1.PartialObjectMetadata
	skipped *NotChecked
}

// inNamespace lists every type in ns (concurrently) and judges each
// object, with the namespace's Services and StatefulSets at hand.
func inNamespace(ctx context.Context, c *kube.Client, ns string, types []resourceType) ([]Object, []NotChecked, int, error) {
	out := make([]listed, len(types))
	var mu sync.Mutex
	lists := 0
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(concurrency)
	for i, t := range types {
		g.Go(func() error {
			items, n, err := list(gctx, c, t, ns)
			mu.Lock()
			lists += n
			mu.Unlock()
			out[i] = listed{t: t, items: items}
			switch {
			case err == nil:
			case ctx.Err() != nil:
				return ctx.Err()
			default:
				out[i].skipped = &NotChecked{Group: t.gvr.Group, Resource: t.gvr.Resource, Namespace: ns, Reason: reason(err)}
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, nil, lists, err
	}
	near := &neighbours{services: map[string]bool{}, statefulSets: map[string]bool{}}
	for _, l := range out {
		for _, o := range l.items {
			switch typeName(l.t.kind, l.t.gvr.Group) {
			case "service":
				near.services[o.Name] = true
			case "statefulset.apps":
				near.statefulSets[o.Name] = true
			}
		}
	}
	var found []Object
	var skipped []NotChecked
	for _, l := range out {
		if l.skipped != nil {
			skipped = append(skipped, *l.skipped)
			continue
		}
		for i := range l.items {
			o := &l.items[i]
			if ownership.Owner(o.Labels, o.Annotations) != "" || madeBy(l.t.gvr.Group, l.t.kind, o, near) != "" {
				continue
			}
			found = append(found, Object{Group: l.t.gvr.Group, Version: l.t.gvr.Version, Kind: l.t.kind, Resource: l.t.gvr.Resource,
				Namespace: ns, Name: o.Name, Created: o.CreationTimestamp.UTC(), LastManager: lastManager(o.ManagedFields)})
		}
	}
	sort.Slice(found, func(i, j int) bool {
		a, b := found[i], found[j]
		if a.Group != b.Group {
			return a.Group < b.Group
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return a.Name < b.Name
	})
	return found, skipped, lists, nil
}

// list reads every object of t in ns, metadata only: one request unless
// there are more than pageSize. It returns how many requests it made.
func list(ctx context.Context, c *kube.Client, t resourceType, ns string) ([]metav1.PartialObjectMetadata, int, error) {
	var items []metav1.PartialObjectMetadata
	opts := metav1.ListOptions{Limit: pageSize}
	for n := 1; ; n++ {
		l, err := c.Metadata.Resource(t.gvr).Namespace(ns).List(ctx, opts)
		if err != nil {
			return nil, n, err
		}
		items = append(items, l.Items...)
		if opts.Continue = l.Continue; opts.Continue == "" {
			return items, n, nil
		}
	}
}

// reason is why a type could not be listed, in a few words.
func reason(err error) string {
	if apierrors.IsForbidden(err) {
		return "forbidden"
	}
	return fmt.Sprintf("listing failed: %v", err)
}

// lastManager is the manager of the newest managedFields entry on the
// object itself, not on a subresource (a controller writing status is
// not who last changed the object); the newest of any entry when every
// entry is on a subresource.
func lastManager(fields []metav1.ManagedFieldsEntry) string {
	if m := newest(fields, true); m != "" {
		return m
	}
	return newest(fields, false)
}

func newest(fields []metav1.ManagedFieldsEntry, mainOnly bool) string {
	var last string
	var at metav1.Time
	for _, f := range fields {
		if mainOnly && f.Subresource != "" {
			continue
		}
		if last == "" || f.Time != nil && !f.Time.Before(&at) {
			last = f.Manager
			if f.Time != nil {
				at = *f.Time
			}
		}
	}
	return last
}
