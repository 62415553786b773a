package plan

import (
	"context"
	"fmt"

	"golang.org/x/sync/errgroup"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeplan/kubeplan/internal/kube"
)

// listThreshold is how many objects of one resource in one namespace make a
// LIST cheaper than a GET each.
const listThreshold = 3

type liveKey struct {
	gvr       schema.GroupVersionResource
	namespace string
}

// address is where one object lives in the cluster.
type address struct {
	gvr             schema.GroupVersionResource
	namespace, name string
}

// readLive fetches the live version of every target; absent objects are
// missing from the result. A target the ApplySet's member listing (set,
// nil without one) already returned, at the target's apiVersion, is not
// read again: for a set applied before, that is nearly every object.
func (p *planner) readLive(ctx context.Context, targets []*target, set *applySet) (map[*target]*unstructured.Unstructured, error) {
	out := map[*target]*unstructured.Unstructured{}
	listed := map[string]*unstructured.Unstructured{}
	if set != nil {
		for _, m := range set.members {
			listed[m.GetAPIVersion()+"/"+m.GetKind()+"/"+m.GetNamespace()+"/"+m.GetName()] = m
		}
	}
	var ts []*target
	var addrs []address
	for _, t := range targets {
		if t.pending {
			continue
		}
		if m := listed[t.obj.GetAPIVersion()+"/"+t.obj.GetKind()+"/"+t.obj.GetNamespace()+"/"+t.obj.GetName()]; m != nil {
			out[t] = m
			continue
		}
		ts = append(ts, t)
		addrs = append(addrs, address{t.gvr, t.obj.GetNamespace(), t.obj.GetName()})
	}
	found, err := fetch(ctx, p.c, addrs, p.opts.Concurrency)
	if err != nil {
		return nil, err
	}
	for i, o := range found {
		if o != nil {
			out[ts[i]] = o
		}
	}
	return out, nil
}

// fetch reads the objects at addrs (nil where absent): one LIST per
// resource and namespace holding several of them, a GET otherwise.
func fetch(ctx context.Context, c *kube.Client, addrs []address, concurrency int) ([]*unstructured.Unstructured, error) {
	groups := map[liveKey][]int{}
	var keys []liveKey
	for i, a := range addrs {
		k := liveKey{a.gvr, a.namespace}
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], i)
	}
	out := make([]*unstructured.Unstructured, len(addrs))
	errs := make([]error, len(keys))
	var eg errgroup.Group
	eg.SetLimit(concurrency)
	for g := range keys {
		eg.Go(func() error {
			k := keys[g]
			idx := groups[k]
			ri := c.Dynamic.Resource(k.gvr).Namespace(k.namespace)
			if len(idx) >= listThreshold {
				list, err := ri.List(ctx, metav1.ListOptions{})
				if err != nil {
					errs[g] = fmt.Errorf("listing %s in %q: %w", k.gvr.Resource, k.namespace, err)
					return nil
				}
				byName := make(map[string]*unstructured.Unstructured, len(list.Items))
				for j := range list.Items {
					byName[list.Items[j].GetName()] = &list.Items[j]
				}
				for _, i := range idx {
					out[i] = byName[addrs[i].name] // each index is written by one goroutine only
				}
				return nil
			}
			for _, i := range idx {
				o, err := ri.Get(ctx, addrs[i].name, metav1.GetOptions{})
				if apierrors.IsNotFound(err) {
					continue
				}
				if err != nil {
					errs[g] = fmt.Errorf("reading %s %s: %w", k.gvr.Resource, addrs[i].name, err)
					return nil
				}
				out[i] = o
			}
			return nil
		})
	}
	_ = eg.Wait() // every call returns nil: errors are kept per index
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
