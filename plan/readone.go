package plan

import (
	"context"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/kube"
)

// ReadAheadOne reads, for the plan of one project in namespace whose
// ApplySet parent is as (nil: none), what its plan reads whatever its
// objects are: the discovery, the identity's rules in the namespaces of
// the project and of its parent, the Namespace (into nss), the parent,
// its members in the namespaces it records, and the autoscalers in
// namespace. Those are the same namespace-scoped requests the plan would
// make; made while the project's manifests are still being built and
// linted, they cost no wall time. Call it once the cluster answers.
//
// Like ReadAheadFor it never fails: a read that fails is left to the
// plan, which makes it again and reports it; the permission checks are
// the plan's, made before anything is applied or pruned.
func ReadAheadOne(ctx context.Context, c *kube.Client, namespace string, as *applyset.Parent, nss *Namespaces) *ReadAhead {
	ra := &ReadAhead{scoped: true}
	var g sync.WaitGroup
	g.Go(func() { _, _ = nss.Get(ctx, namespace) })
	g.Go(func() { rulesOf(ctx, c, namespace) })
	g.Go(func() {
		if items, ok := autoscalersOf(ctx, c, namespace); ok {
			ra.autoscalers = map[string][]unstructured.Unstructured{namespace: items}
		}
	})
	if as != nil && as.Resource() == "configmaps" {
		if as.Namespace != namespace {
			g.Go(func() { rulesOf(ctx, c, as.Namespace) })
		}
		g.Go(func() { ra.readSet(ctx, c, *as) })
	}
	g.Wait()
	return ra
}

// autoscalersOf lists the HorizontalPodAutoscalers in ns; ok is false when
// that failed (the plan asks again and says why).
func autoscalersOf(ctx context.Context, c *kube.Client, ns string) ([]unstructured.Unstructured, bool) {
	m, err := c.Mapper.RESTMapping(autoscalerKind)
	if err != nil {
		return nil, false
	}
	list, err := c.Dynamic.Resource(m.Resource).Namespace(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, false
	}
	return list.Items, true
}

// readSet reads the parent as and, when it is an ApplySet parent, its
// members of each kind it records, in the namespaces it records (one LIST
// per kind and namespace, as listMembers makes them).
func (ra *ReadAhead) readSet(ctx context.Context, c *kube.Client, as applyset.Parent) {
	gvr := schema.GroupVersionResource{Version: "v1", Resource: as.Resource()}
	obj, err := c.Dynamic.Resource(gvr).Namespace(as.Namespace).Get(ctx, as.Name, metav1.GetOptions{})
	key := as.Namespace + "/" + as.Name
	switch {
	case apierrors.IsNotFound(err):
		ra.parents = map[string]*unstructured.Unstructured{key: nil}
		return
	case err != nil:
		return // the plan reads it again, and says why
	}
	ra.parents = map[string]*unstructured.Unstructured{key: obj}
	st, err := as.Read(obj.GetLabels(), obj.GetAnnotations())
	if err != nil {
		return // readParent says why
	}
	kinds := map[schema.GroupKind]bool{}
	for _, gk := range withResourceKinds(c, st).GroupKinds {
		kinds[gk] = true
	}
	ra.members, ra.kinds, ra.listedIn = map[schema.GroupKind][]*unstructured.Unstructured{}, map[schema.GroupKind]bool{}, map[schema.GroupKind][]string{}
	var mu sync.Mutex
	var g sync.WaitGroup
	sem := make(chan struct{}, membersConcurrency)
	for gk := range kinds {
		m, err := c.Mapper.RESTMapping(gk)
		if err != nil {
			continue // not served: listMembers skips it too
		}
		namespaces := memberNamespaces(m, as.Namespace, st.Namespaces)
		g.Go(func() {
			var items []*unstructured.Unstructured
			for _, ns := range namespaces {
				sem <- struct{}{}
				l, err := c.Dynamic.Resource(m.Resource).Namespace(ns).List(ctx, metav1.ListOptions{LabelSelector: applyset.MemberSelector(as.ID())})
				<-sem
				if err != nil {
					return // this kind is left to the plan
				}
				for j := range l.Items {
					items = append(items, &l.Items[j])
				}
			}
			mu.Lock()
			ra.members[gk], ra.kinds[gk], ra.listedIn[gk] = items, true, namespaces
			mu.Unlock()
		})
	}
	g.Wait()
}
