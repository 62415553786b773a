package orphans

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/kubeplan/kubeplan/internal/kube"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
)

// resourceType is a namespaced resource type that can be listed.
type resourceType struct {
	gvr  schema.GroupVersionResource
	kind string
}

// discoveredTypes is what listable found, kept in the client's Memo so
// that the projects of one cluster discover its types once per run.
type discoveredTypes struct {
	types      []resourceType
	notChecked []NotChecked
}

// discovered is listable(c.Discovery), once per run and cluster (a
// failure is not kept: the next project asks again).
func discovered(c *kube.Client) ([]resourceType, []NotChecked, error) {
	const key = "orphans.types"
	if c.Memo != nil {
		if v, ok := c.Memo.Load(key); ok {
			d := v.(discoveredTypes)
			return d.types, slices.Clone(d.notChecked), nil
		}
	}
	types, notChecked, err := listable(c.Discovery)
	if err == nil && c.Memo != nil {
		c.Memo.Store(key, discoveredTypes{types, slices.Clone(notChecked)})
	}
	return types, notChecked, err
}

// listable is every namespaced resource type discovery offers (its
// preferred version) whose objects can be listed, created and deleted
// (madeAndListed), without subresources and without the types
// Kubernetes alone writes (skipped). A group whose
// discovery failed (an aggregated API that is down) is not checked.
func listable(dc discovery.DiscoveryInterface) ([]resourceType, []NotChecked, error) {
	lists, err := dc.ServerPreferredNamespacedResources()
	var failed *discovery.ErrGroupDiscoveryFailed
	var notChecked []NotChecked
	switch {
	case errors.As(err, &failed):
		for gv, gerr := range failed.Groups {
			notChecked = append(notChecked, NotChecked{Group: gv.Group, Resource: "*", Reason: "discovery failed: " + gerr.Error()})
		}
	case err != nil:
		return nil, nil, fmt.Errorf("discovering the cluster's resource types: %w", err)
	}
	var types []resourceType
	for _, l := range lists {
		gv, err := schema.ParseGroupVersion(l.GroupVersion)
		if err != nil {
			continue
		}
		for _, r := range l.APIResources {
			if strings.Contains(r.Name, "/") || !r.Namespaced || !madeAndListed(r.Verbs) {
				continue
			}
			if skipped(gv.Group, r.Name) {
				continue
			}
			types = append(types, resourceType{gvr: gv.WithResource(r.Name), kind: r.Kind})
		}
	}
	sort.Slice(types, func(i, j int) bool {
		a, b := types[i].gvr, types[j].gvr
		return a.Group+"/"+a.Resource < b.Group+"/"+b.Resource
	})
	sort.Slice(notChecked, func(i, j int) bool { return notChecked[i].Group < notChecked[j].Group })
	return types, notChecked, nil
}

// skippedTypes are never listed: Kubernetes and controllers write every
// object of them (Events, Leases).
var skippedTypes = []metav1.GroupResource{
	{Group: "", Resource: "events"},
	{Group: "events.k8s.io", Resource: "events"},
	{Group: "coordination.k8s.io", Resource: "leases"},
}

func skipped(group, resource string) bool {
	return slices.Contains(skippedTypes, metav1.GroupResource{Group: group, Resource: resource})
}

// madeAndListed reports whether a type's verbs include list, create and
// delete: objects someone can have made and can remove. Read-only views
// (metrics.k8s.io's PodMetrics) and create-only requests (Bindings,
// access reviews) hold nothing left over.
func madeAndListed(verbs metav1.Verbs) bool {
	return slices.Contains(verbs, "list") && slices.Contains(verbs, "create") && slices.Contains(verbs, "delete")
}
