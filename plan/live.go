package plan

import (
	"context"
	"fmt"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeplan/kubeplan/internal/parallel"
)

// listThreshold is how many objects of one resource in one namespace make a
// LIST cheaper than a GET each.
const listThreshold = 3

type liveKey struct {
	gvr       schema.GroupVersionResource
	namespace string
}

// readLive fetches the live version of every target: one LIST per resource
// and namespace when the set has several objects of it, a GET otherwise.
// Absent objects are missing from the result.
func (p *planner) readLive(ctx context.Context, targets []*target) (map[*target]*unstructured.Unstructured, error) {
	groups := map[liveKey][]*target{}
	var keys []liveKey
	for _, t := range targets {
		if t.pending {
			continue
		}
		k := liveKey{t.gvr, t.obj.GetNamespace()}
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], t)
	}
	out := map[*target]*unstructured.Unstructured{}
	var mu sync.Mutex
	errs := make([]error, len(keys))
	parallel.Each(p.opts.Concurrency, len(keys), func(i int) {
		k := keys[i]
		ts := groups[k]
		ri := p.c.Dynamic.Resource(k.gvr).Namespace(k.namespace)
		if len(ts) >= listThreshold {
			list, err := ri.List(ctx, metav1.ListOptions{})
			if err != nil {
				errs[i] = fmt.Errorf("listing %s in %q: %w", k.gvr.Resource, k.namespace, err)
				return
			}
			byName := make(map[string]*unstructured.Unstructured, len(list.Items))
			for j := range list.Items {
				byName[list.Items[j].GetName()] = &list.Items[j]
			}
			mu.Lock()
			for _, t := range ts {
				if o, ok := byName[t.obj.GetName()]; ok {
					out[t] = o
				}
			}
			mu.Unlock()
			return
		}
		for _, t := range ts {
			o, err := ri.Get(ctx, t.obj.GetName(), metav1.GetOptions{})
			if apierrors.IsNotFound(err) {
				continue
			}
			if err != nil {
				errs[i] = fmt.Errorf("reading %s: %w", t.ref, err)
				return
			}
			mu.Lock()
			out[t] = o
			mu.Unlock()
		}
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
