package plan

import (
	"context"
	"slices"
	"sort"
	"strings"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/kube"
)

// ReadAhead is what a plan of many projects on one cluster (plan --all)
// reads for all of them at once, with a few LISTs across namespaces,
// instead of each project's own GETs and LISTs: the ApplySet parents
// (ConfigMaps), their members by kind, the Namespaces and the
// HorizontalPodAutoscalers. 50 projects make about 12 reads instead of
// 600; the API server's work, not the bytes, is what that saves. For a
// plan of one project, ReadAheadOne makes the project's own reads early
// instead (readone.go): the wall time, not the requests, is what that
// saves.
//
// Each part is all or nothing: a LIST that fails (an identity that may not
// list across namespaces, a timeout) leaves that part to each project's
// own reads, exactly as without ReadAhead. Its answers are as old as the
// moment they were read: fine for a plan, which is a snapshot anyway;
// apply re-reads what it writes under its lock (CheckFresh), and run uses
// ReadAhead only for plans.
type ReadAhead struct {
	// parents are the ConfigMap parents by "namespace/name"; nil when not
	// read.
	parents map[string]*unstructured.Unstructured
	// members are the members of the read parents' sets, by kind; a kind
	// is in kinds when its LIST succeeded.
	members map[schema.GroupKind][]*unstructured.Unstructured
	kinds   map[schema.GroupKind]bool
	// namespaces are the live Namespaces by name; nil when not read.
	namespaces map[string]*unstructured.Unstructured
	// autoscalers are the HorizontalPodAutoscalers by namespace; nil when
	// not read.
	autoscalers map[string][]unstructured.Unstructured
	// scoped says the reads were one project's (ReadAheadOne): a parent,
	// or a namespace's autoscalers, missing from their map were not read,
	// and a kind's members were read only in listedIn[kind] ("": in all).
	scoped   bool
	listedIn map[schema.GroupKind][]string
	// everything is set when the identity may do every verb on every
	// resource in every namespace (one SelfSubjectAccessReview): then no
	// project checks its permissions one by one.
	everything bool
}

// idsPerList bounds the ApplySet ids in one member LIST's label selector
// (a URL of a few KiB).
const idsPerList = 40

// ReadAheadFor reads ahead for the projects whose ApplySet parents are
// parents, all on c's cluster. It never fails: what it could not read is
// left to the projects.
func ReadAheadFor(ctx context.Context, c *kube.Client, parents []applyset.Parent) *ReadAhead {
	ra := &ReadAhead{}
	var g sync.WaitGroup
	g.Go(func() { ra.namespaces = readNamespaces(ctx, c) })
	g.Go(func() { ra.autoscalers = readAutoscalers(ctx, c) })
	g.Go(func() { ra.readSets(ctx, c, parents) })
	g.Go(func() { ra.everything = mayDoEverything(ctx, c) })
	g.Wait()
	return ra
}

// mayDoEverything asks whether the identity may do every verb on every
// resource of every group in every namespace: RBAC grants that only with
// a rule of * verbs on * resources (cluster-admin), other authorizers to
// whom they say so. Any failure is a no.
func mayDoEverything(ctx context.Context, c *kube.Client) bool {
	review := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "authorization.k8s.io/v1",
		"kind":       "SelfSubjectAccessReview",
		"spec":       map[string]any{"resourceAttributes": map[string]any{"verb": "*", "group": "*", "resource": "*"}},
	}}
	res, err := c.Dynamic.Resource(ssarGVR).Create(ctx, review, metav1.CreateOptions{})
	if err != nil {
		return false
	}
	ok, _, _ := unstructured.NestedBool(res.Object, "status", "allowed")
	return ok
}

// allowsEverything says whether ReadAheadFor found the identity may do
// everything.
func (ra *ReadAhead) allowsEverything() bool { return ra != nil && ra.everything }

func readNamespaces(ctx context.Context, c *kube.Client) map[string]*unstructured.Unstructured {
	list, err := c.Dynamic.Resource(namespaceGVR).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil
	}
	out := map[string]*unstructured.Unstructured{}
	for i := range list.Items {
		out[list.Items[i].GetName()] = &list.Items[i]
	}
	return out
}

func readAutoscalers(ctx context.Context, c *kube.Client) map[string][]unstructured.Unstructured {
	m, err := c.Mapper.RESTMapping(autoscalerKind)
	if err != nil {
		return nil // not served, or unknown: each project asks (and finds none)
	}
	list, err := c.Dynamic.Resource(m.Resource).Namespace(metav1.NamespaceAll).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil
	}
	out := map[string][]unstructured.Unstructured{}
	for _, item := range list.Items {
		out[item.GetNamespace()] = append(out[item.GetNamespace()], item)
	}
	return out
}

// readSets lists the ConfigMap parents across namespaces, then the members
// of those among parents, one LIST per kind they name.
func (ra *ReadAhead) readSets(ctx context.Context, c *kube.Client, parents []applyset.Parent) {
	want := map[string]applyset.Parent{}
	for _, as := range parents {
		if as.Resource() == "configmaps" {
			want[as.Namespace+"/"+as.Name] = as
		}
	}
	if len(want) == 0 {
		return
	}
	cms := schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	list, err := c.Dynamic.Resource(cms).Namespace(metav1.NamespaceAll).List(ctx, metav1.ListOptions{LabelSelector: applyset.LabelID})
	if err != nil {
		return
	}
	found := map[string]*unstructured.Unstructured{}
	kinds := map[schema.GroupKind]bool{}
	var ids []string
	for i := range list.Items {
		o := &list.Items[i]
		key := o.GetNamespace() + "/" + o.GetName()
		as, ok := want[key]
		if !ok {
			continue
		}
		found[key] = o
		st, err := as.Read(o.GetLabels(), o.GetAnnotations())
		if err != nil {
			continue // readParent says why, for that project
		}
		ids = append(ids, as.ID())
		for _, gk := range withResourceKinds(c, st).GroupKinds {
			kinds[gk] = true
		}
	}
	ra.parents = found
	sort.Strings(ids)
	ra.members, ra.kinds = map[schema.GroupKind][]*unstructured.Unstructured{}, map[schema.GroupKind]bool{}
	var mu sync.Mutex
	var g sync.WaitGroup
	sem := make(chan struct{}, membersConcurrency)
	for gk := range kinds {
		m, err := c.Mapper.RESTMapping(gk)
		if err != nil {
			continue // not served: ListMembers skips it too
		}
		g.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			var items []*unstructured.Unstructured
			for start := 0; start < len(ids); start += idsPerList {
				chunk := ids[start:min(start+idsPerList, len(ids))]
				sel := applyset.LabelPartOf + " in (" + strings.Join(chunk, ",") + ")"
				l, err := c.Dynamic.Resource(m.Resource).Namespace(metav1.NamespaceAll).List(ctx, metav1.ListOptions{LabelSelector: sel})
				if err != nil {
					return // this kind is left to each project
				}
				for j := range l.Items {
					items = append(items, &l.Items[j])
				}
			}
			mu.Lock()
			ra.members[gk], ra.kinds[gk] = items, true
			mu.Unlock()
		})
	}
	g.Wait()
}

// parent is the read-ahead parent as: ok is false when it was not read
// (ask the cluster); obj nil with ok means it does not exist.
func (ra *ReadAhead) parent(as applyset.Parent) (obj *unstructured.Unstructured, ok bool) {
	if ra == nil || ra.parents == nil || as.Resource() != "configmaps" {
		return nil, false
	}
	obj, ok = ra.parents[as.Namespace+"/"+as.Name]
	return obj, ok || !ra.scoped
}

// membersOf are the read-ahead members of kind gk of the set as, in
// namespaces (all of them for a cluster-scoped kind: nil); ok is false
// when that kind was not read.
func (ra *ReadAhead) membersOf(as applyset.Parent, gk schema.GroupKind, namespaces []string) (out []*unstructured.Unstructured, ok bool) {
	if ra == nil || !ra.kinds[gk] || ra.scoped && !listedAll(ra.listedIn[gk], namespaces) {
		return nil, false
	}
	if _, read := ra.parent(as); !read {
		return nil, false
	}
	id := as.ID()
	for _, o := range ra.members[gk] {
		if o.GetLabels()[applyset.LabelPartOf] != id {
			continue
		}
		if namespaces != nil && !slices.Contains(namespaces, o.GetNamespace()) {
			continue
		}
		out = append(out, o)
	}
	return out, true
}

// listedAll says whether LISTs in listed ("": all namespaces) hold every
// object in namespaces (nil: all of them).
func listedAll(listed, namespaces []string) bool {
	if slices.Contains(listed, "") {
		return true
	}
	if namespaces == nil {
		return false
	}
	for _, ns := range namespaces {
		if !slices.Contains(listed, ns) {
			return false
		}
	}
	return true
}

// namespace is the read-ahead Namespace name: ok is false when the
// Namespaces were not read; obj nil with ok means it does not exist.
func (ra *ReadAhead) namespace(name string) (obj *unstructured.Unstructured, ok bool) {
	if ra == nil || ra.namespaces == nil {
		return nil, false
	}
	return ra.namespaces[name], true
}

// autoscalersIn are the read-ahead autoscalers in ns; ok is false when
// they were not read.
func (ra *ReadAhead) autoscalersIn(ns string) ([]unstructured.Unstructured, bool) {
	if ra == nil || ra.autoscalers == nil {
		return nil, false
	}
	items, ok := ra.autoscalers[ns]
	return items, ok || !ra.scoped
}

// notFound is the API server's answer for a Namespace ReadAhead knows is
// not there.
func notFound(name string) error {
	return apierrors.NewNotFound(schema.GroupResource{Resource: "namespaces"}, name)
}
