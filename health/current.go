package health

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeplan/kubeplan/internal/kube"
)

// healthCurrentKinds are the kinds kstatus (sigs.k8s.io/cli-utils
// status.Compute) calls Current as soon as they exist: they have no
// status.conditions, no status.observedGeneration and no kind-specific
// rule other than "always ready", so nothing can make them InProgress but a
// deletion. The health wait does not wait for them at all.
var healthCurrentKinds = map[schema.GroupKind]bool{
	{Kind: "ConfigMap"}:      true,
	{Kind: "Secret"}:         true,
	{Kind: "ServiceAccount"}: true,
	{Kind: "Namespace"}:      true,
	{Kind: "LimitRange"}:     true,
	{Kind: "ResourceQuota"}:  true,
	{Kind: "Endpoints"}:      true,
	{Group: "rbac.authorization.k8s.io", Kind: "Role"}:                              true,
	{Group: "rbac.authorization.k8s.io", Kind: "RoleBinding"}:                       true,
	{Group: "rbac.authorization.k8s.io", Kind: "ClusterRole"}:                       true,
	{Group: "rbac.authorization.k8s.io", Kind: "ClusterRoleBinding"}:                true,
	{Group: "networking.k8s.io", Kind: "NetworkPolicy"}:                             true,
	{Group: "networking.k8s.io", Kind: "Ingress"}:                                   true,
	{Group: "networking.k8s.io", Kind: "IngressClass"}:                              true,
	{Group: "batch", Kind: "CronJob"}:                                               true,
	{Group: "scheduling.k8s.io", Kind: "PriorityClass"}:                             true,
	{Group: "storage.k8s.io", Kind: "StorageClass"}:                                 true,
	{Group: "node.k8s.io", Kind: "RuntimeClass"}:                                    true,
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingWebhookConfiguration"}: true,
	{Group: "admissionregistration.k8s.io", Kind: "MutatingWebhookConfiguration"}:   true,
}

// healthCurrentOnWrite reports whether ref, just written as obj (nil when
// unknown), is Current by kstatus without waiting: one of
// healthCurrentKinds, or a Service of a type other than LoadBalancer (only
// a LoadBalancer waits, for its ingress address).
func healthCurrentOnWrite(ref kube.Ref, obj map[string]any) bool {
	gk := schema.GroupKind{Group: ref.Group, Kind: ref.Kind}
	if healthCurrentKinds[gk] {
		return true
	}
	if gk == (schema.GroupKind{Kind: "Service"}) && obj != nil {
		typ, _, _ := unstructured.NestedString(obj, "spec", "type")
		return typ != "LoadBalancer"
	}
	return false
}
