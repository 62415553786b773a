package plan

import (
	"context"
	"encoding/json"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeplan/kubeplan/internal/hpa"
)

var autoscalerKind = schema.GroupKind{Group: "autoscaling", Kind: "HorizontalPodAutoscaler"}

// leaveReplicasToAutoscalers takes spec.replicas out of every Deployment
// and StatefulSet a HorizontalPodAutoscaler scales (one in the set, or one
// in the cluster), so that the plan shows no change for it and the apply
// never writes it: the field stays with the autoscaler's manager.
//
// One exception keeps the handover safe: while the live object's replicas
// are still owned by this field manager (the autoscaler has not scaled it
// yet), dropping the field would reset it to the default of 1. Then the
// live value is applied instead, which changes nothing; the autoscaler
// takes the field over the first time it scales.
func (p *planner) leaveReplicasToAutoscalers(ctx context.Context, targets []*target, live map[*target]*unstructured.Unstructured) error {
	var scaled []*target
	namespaces := map[string]bool{}
	for _, t := range targets {
		spec, _ := t.obj.Object["spec"].(map[string]any)
		if _, ok := spec["replicas"]; ok && hpa.Scalable(t.obj.GetAPIVersion(), t.obj.GetKind()) {
			scaled = append(scaled, t)
			namespaces[t.obj.GetNamespace()] = true
		}
	}
	if len(scaled) == 0 {
		return nil // no request when no workload sets replicas
	}
	owned := map[hpa.Workload]bool{}
	for _, t := range targets {
		if hpa.IsAutoscaler(t.obj.GetAPIVersion(), t.obj.GetKind()) {
			if w, ok := hpa.Target(t.obj.Object, t.obj.GetNamespace()); ok {
				owned[w] = true
			}
		}
		if w, ok := scaledObjectTarget(t.obj); ok {
			owned[w] = true // KEDA's HorizontalPodAutoscaler will scale it
		}
	}
	for ns := range namespaces {
		ws, err := p.clusterAutoscalerTargets(ctx, ns)
		if err != nil {
			return err
		}
		for _, w := range ws {
			owned[w] = true
		}
	}
	for _, t := range scaled {
		if !owned[hpa.Workload{Kind: t.obj.GetKind(), Namespace: t.obj.GetNamespace(), Name: t.obj.GetName()}] {
			continue
		}
		if v, ok := ownReplicas(live[t], p.opts.FieldManager); ok {
			_ = unstructured.SetNestedField(t.obj.Object, v, "spec", "replicas")
			continue
		}
		unstructured.RemoveNestedField(t.obj.Object, "spec", "replicas")
	}
	return nil
}

// clusterAutoscalerTargets lists the workloads the autoscalers in ns scale.
// When the identity may not list them, or the cluster serves no
// autoscalers, it returns none: then only autoscalers in the set count.
func (p *planner) clusterAutoscalerTargets(ctx context.Context, ns string) ([]hpa.Workload, error) {
	if items, ok := p.opts.ReadAhead.autoscalersIn(ns); ok {
		var out []hpa.Workload
		for _, item := range items {
			if w, ok := hpa.Target(item.Object, ns); ok {
				out = append(out, w)
			}
		}
		return out, nil
	}
	m, err := p.c.Mapper.RESTMapping(autoscalerKind)
	if meta.IsNoMatchError(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("looking up HorizontalPodAutoscaler: %w", err)
	}
	list, err := p.c.Dynamic.Resource(m.Resource).Namespace(ns).List(ctx, metav1.ListOptions{})
	if apierrors.IsForbidden(err) || apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("listing horizontalpodautoscalers in %q: %w", ns, err)
	}
	var out []hpa.Workload
	for _, item := range list.Items {
		if w, ok := hpa.Target(item.Object, ns); ok {
			out = append(out, w)
		}
	}
	return out, nil
}

// ownReplicas returns live's spec.replicas when manager's apply owns it.
func ownReplicas(live *unstructured.Unstructured, manager string) (int64, bool) {
	if live == nil {
		return 0, false
	}
	v, ok, _ := unstructured.NestedInt64(live.Object, "spec", "replicas")
	if !ok {
		return 0, false
	}
	for _, m := range live.GetManagedFields() {
		if m.Manager != manager || m.Operation != metav1.ManagedFieldsOperationApply || m.Subresource != "" || m.FieldsV1 == nil {
			continue
		}
		var set struct {
			Spec map[string]any `json:"f:spec"`
		}
		if json.Unmarshal(m.FieldsV1.Raw, &set) == nil {
			if _, ok := set.Spec["f:replicas"]; ok {
				return v, true
			}
		}
	}
	return 0, false
}
