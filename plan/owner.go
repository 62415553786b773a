package plan

import (
	"context"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/ownership"
)

// recordOwners notes on each change the live object's uid and, for an
// update or replace (a write that takes the object over), its other owner.
// Another ApplySet is named by its parent when a ConfigMap or Secret in
// the object's namespace (the plan's, for a cluster-scoped object)
// carries that id (one LIST each per set id),
// otherwise by its id.
func (p *planner) recordOwners(ctx context.Context, set *applySet, targets []*target, live map[*target]*unstructured.Unstructured, changes []Change) {
	setID := ""
	if set != nil {
		setID = set.parent.ID
	}
	names := map[string]string{}
	for i, t := range targets {
		l := live[t]
		if l == nil {
			continue
		}
		changes[i].LiveUID = string(l.GetUID())
		if a := changes[i].Action; a != Update && a != Replace {
			continue
		}
		owner := ownership.Foreign(l, setID)
		if id, ok := strings.CutPrefix(owner, ownership.ApplySetPrefix); ok {
			ns := l.GetNamespace()
			if ns == "" {
				ns = p.opts.Namespace
			}
			key := ns + "/" + id
			if _, done := names[key]; !done {
				names[key] = p.parentName(ctx, ns, id)
			}
			owner = ownership.ApplySetPrefix + names[key]
		}
		changes[i].Owner = owner
	}
}

// parentName finds the parent of the ApplySet id among the ConfigMaps and
// Secrets of namespace ns ("configmap/other-set"); it returns id when it
// cannot (not there, or not allowed to list).
func (p *planner) parentName(ctx context.Context, ns, id string) string {
	for _, res := range []string{"configmaps", "secrets"} {
		ri := p.c.Dynamic.Resource(schema.GroupVersionResource{Version: "v1", Resource: res}).Namespace(ns)
		list, err := ri.List(ctx, metav1.ListOptions{LabelSelector: applyset.LabelID + "=" + id})
		if err != nil || len(list.Items) != 1 {
			continue
		}
		return strings.TrimSuffix(res, "s") + "/" + list.Items[0].GetName()
	}
	return id
}
