package plan

import (
	"context"
	"errors"
	"fmt"

	"golang.org/x/sync/errgroup"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/helmhook"
	"github.com/kubeplan/kubeplan/internal/kube"
)

// applySet is the live state of the set's parent and its members.
type applySet struct {
	parent  Parent
	state   applyset.State
	members []*unstructured.Unstructured
	// hooksRan is the parent's helmhook.RanAnnotation.
	hooksRan map[string]string
}

// preflightAndReadSet checks every permission the apply needs, reads the
// ApplySet (its parent and its members), checks what pruning them needs, and
// reports every missing permission together.
func (p *planner) preflightAndReadSet(ctx context.Context, targets []*target) (*applySet, error) {
	perms := applyPermissions(targets)
	as := p.opts.ApplySet
	if as != nil {
		for _, verb := range []string{"get", "create", "patch"} {
			perms = append(perms, Permission{Verb: verb, Resource: as.Resource(), Namespace: as.Namespace, Name: as.Name, Why: "the ApplySet parent"})
		}
		for _, verb := range []string{"get", "create", "update", "delete"} {
			perms = append(perms, Permission{Verb: verb, Group: "coordination.k8s.io", Resource: "leases", Namespace: as.Namespace, Why: "the apply lock"})
		}
	}
	missing, err := p.checkPermissions(ctx, perms)
	if err != nil {
		return nil, err
	}
	var set *applySet
	if as != nil && !lacks(missing, "get", as.Resource()) {
		// The parent names the member types; pruning them needs list and
		// delete, checked before any member is listed, so that an existing
		// set gets the same complete list as a new one.
		if set, err = p.readParent(ctx, *as); err != nil {
			return nil, err
		}
		more, err := p.checkPermissions(ctx, set.prunePermissions(p))
		if err != nil {
			return nil, err
		}
		missing = append(missing, more...)
	}
	if len(missing) > 0 {
		return nil, p.withIdentity(ctx, missing)
	}
	if set != nil && set.parent.Exists {
		if set.members, err = listMembers(ctx, p.c, *as, set.state, p.opts.ReadAhead); err != nil {
			return nil, err
		}
	}
	return set, nil
}

func lacks(m MissingPermissions, verb, resource string) bool {
	for _, p := range m {
		if p.Verb == verb && p.Resource == resource {
			return true
		}
	}
	return false
}

// readParent reads the parent and the member types it names.
func (p *planner) readParent(ctx context.Context, as applyset.Parent) (*applySet, error) {
	gvr := schema.GroupVersionResource{Version: "v1", Resource: as.Resource()}
	set := &applySet{parent: Parent{Ref: Ref{Version: "v1", Kind: as.Kind, Resource: as.Resource(), Namespace: as.Namespace, Name: as.Name}, ID: as.ID()}}
	obj, read := p.opts.ReadAhead.parent(as)
	if read && obj == nil {
		return set, nil
	}
	if !read {
		var err error
		obj, err = p.c.Dynamic.Resource(gvr).Namespace(as.Namespace).Get(ctx, as.Name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return set, nil
		}
		if err != nil {
			return nil, fmt.Errorf("reading the ApplySet parent %s: %w", as, err)
		}
	}
	set.parent.Exists, set.parent.ResourceVersion = true, obj.GetResourceVersion()
	set.parent.Revision = obj.GetAnnotations()["kubeplan.dev/revision"]
	set.parent.Result = obj.GetAnnotations()["kubeplan.dev/result"]
	set.parent.CheckedAt = obj.GetAnnotations()["kubeplan.dev/checked-at"]
	set.parent.Suspended = ParseSuspension(obj.GetAnnotations()[AnnotationSuspended])
	set.hooksRan = helmhook.ParseRan(obj.GetAnnotations()[helmhook.RanAnnotation])
	st, err := as.Read(obj.GetLabels(), obj.GetAnnotations())
	if errors.Is(err, applyset.ErrNotParent) {
		return nil, fmt.Errorf("%s exists in namespace %s but is not an ApplySet parent; choose another ApplySet name (--applyset, or applyset: in kubeplan.yaml)", as, as.Namespace)
	}
	if err != nil {
		return nil, err
	}
	if !applyset.IsOurs(st.Tooling) && !p.opts.Adopt {
		return nil, fmt.Errorf("the ApplySet %s was made by %s; kubeplan leaves other tools' sets alone (to take it over, plan and apply it once from the command line with --adopt; kubeplan serve never adopts: its members will then be pruned by kubeplan)", as, st.Tooling)
	}
	set.state = withResourceKinds(p.c, st)
	return set, nil
}

// withResourceKinds is st with the kinds of the group resources it records
// (kubectl's older annotation) among its group kinds, those the cluster
// serves.
func withResourceKinds(c *kube.Client, st applyset.State) applyset.State {
	for _, gr := range st.GroupResources {
		if gvk, err := c.Mapper.KindFor(gr.WithVersion("")); err == nil {
			st.GroupKinds = applyset.Union(st.GroupKinds, []applyset.GroupKind{gvk.GroupKind()})
		}
	}
	return st
}

// memberNamespaces are the namespaces an ApplySet's members of the type
// mapped by m are listed in: "" (all) for a cluster-scoped type, else the
// parent's namespace and the others the set records.
func memberNamespaces(m *meta.RESTMapping, parentNS string, recorded []string) []string {
	if m.Scope.Name() != meta.RESTScopeNameNamespace {
		return []string{""}
	}
	return append([]string{parentNS}, recorded...)
}

// ListMembers lists the live members of the ApplySet whose parent is as and
// whose recorded state is st: every object of the types it names, in its
// namespaces, carrying its part-of label. Types the cluster no longer serves
// are skipped (nothing of them can be left).
func ListMembers(ctx context.Context, c *kube.Client, as applyset.Parent, st applyset.State) ([]*unstructured.Unstructured, error) {
	return listMembers(ctx, c, as, st, nil)
}

// listMembers is ListMembers taking the kinds ra read ahead from it.
func listMembers(ctx context.Context, c *kube.Client, as applyset.Parent, st applyset.State, ra *ReadAhead) ([]*unstructured.Unstructured, error) {
	type listing struct {
		gvr schema.GroupVersionResource
		ns  string
	}
	var ls []listing
	var ahead []*unstructured.Unstructured
	for _, gk := range st.GroupKinds {
		m, err := c.Mapper.RESTMapping(gk)
		if err != nil {
			continue
		}
		namespaces := memberNamespaces(m, as.Namespace, st.Namespaces)
		within := namespaces
		if within[0] == "" {
			within = nil // cluster-scoped: wherever
		}
		if items, ok := ra.membersOf(as, gk, within); ok {
			ahead = append(ahead, items...)
			continue
		}
		for _, ns := range namespaces {
			ls = append(ls, listing{m.Resource, ns})
		}
	}
	// The listings are independent: made concurrently, kept in order.
	found := make([][]*unstructured.Unstructured, len(ls))
	var g errgroup.Group
	g.SetLimit(membersConcurrency)
	for i, l := range ls {
		g.Go(func() error {
			list, err := c.Dynamic.Resource(l.gvr).Namespace(l.ns).List(ctx, metav1.ListOptions{LabelSelector: applyset.MemberSelector(as.ID())})
			if err != nil {
				return fmt.Errorf("listing the ApplySet's %s in %q: %w", l.gvr.Resource, l.ns, err)
			}
			for j := range list.Items {
				found[i] = append(found[i], &list.Items[j])
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	out := ahead
	for _, f := range found {
		out = append(out, f...)
	}
	return out, nil
}

// membersConcurrency bounds the listings of ListMembers in flight.
const membersConcurrency = 8

// prunePermissions are what pruning (and releasing) the set's member
// types needs.
func (s *applySet) prunePermissions(p *planner) []Permission {
	var out []Permission
	for _, gk := range s.state.GroupKinds {
		m, err := p.c.Mapper.RESTMapping(gk)
		if err != nil {
			continue
		}
		for _, ns := range memberNamespaces(m, s.parent.Ref.Namespace, s.state.Namespaces) {
			// get: a prune reads each object again first; patch: a
			// protected member is released (its label removed).
			for _, verb := range []string{"get", "list", "delete", "patch"} {
				out = append(out, Permission{Verb: verb, Group: m.Resource.Group, Resource: m.Resource.Resource, Namespace: ns, Why: "prune"})
			}
		}
	}
	return out
}

// prunes are the members that are no longer in the set.
func (s *applySet) prunes(targets []*target) []Change {
	keep := map[string]bool{}
	for _, t := range targets {
		keep[memberKey(t.ref.Group, t.ref.Kind, t.obj.GetNamespace(), t.obj.GetName())] = true
	}
	var out []Change
	for _, m := range s.members {
		gvk := m.GroupVersionKind()
		if keep[memberKey(gvk.Group, gvk.Kind, m.GetNamespace(), m.GetName())] {
			continue
		}
		c := Change{
			Ref:                 Ref{Group: gvk.Group, Version: gvk.Version, Kind: gvk.Kind, Namespace: m.GetNamespace(), Name: m.GetName()},
			Action:              Prune,
			Diff:                Diff(m.Object, nil),
			LiveResourceVersion: m.GetResourceVersion(),
			LiveUID:             string(m.GetUID()),
		}
		if m.GetAnnotations()[PruneAnnotation] == "disabled" {
			// Protected: it stays in the cluster though it left git, and
			// leaves the set, so that it no longer looks like a member.
			c.Action, c.Reason, c.Diff = Release, ReleaseReason, Diff(m.Object, withoutPartOf(m))
		}
		out = append(out, c)
	}
	return out
}

// PruneAnnotation set to "disabled" on a live object keeps it from ever
// being pruned: when it leaves the manifests it is released instead.
const PruneAnnotation = "kubeplan.dev/prune"

// ReleaseReason is the Reason of a Release change.
const ReleaseReason = "prune disabled: kept, no longer managed"

// withoutPartOf is m without its ApplySet label: what releasing leaves.
func withoutPartOf(m *unstructured.Unstructured) map[string]any {
	c := m.DeepCopy()
	labels := c.GetLabels()
	delete(labels, applyset.LabelPartOf)
	c.SetLabels(labels)
	return c.Object
}

func memberKey(group, kind, ns, name string) string {
	return group + "/" + kind + "/" + ns + "/" + name
}
