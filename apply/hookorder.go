package apply

// hookKindOrder is the order in which hooks of one weight are applied,
// by kind, as Helm installs a release's objects: what others need first
// (service accounts, secrets, config, RBAC) and what uses them (Jobs,
// webhooks) last. A hook Job thus finds the ServiceAccount, Role and
// RoleBinding hooks of its own weight already there. Kinds not listed
// come after, by name.
var hookKindOrder = kindOrder([]string{
	"PriorityClass", "Namespace", "NetworkPolicy", "ResourceQuota", "LimitRange",
	"PodDisruptionBudget", "ServiceAccount", "Secret", "ConfigMap", "StorageClass",
	"PersistentVolume", "PersistentVolumeClaim", "CustomResourceDefinition",
	"ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding", "Service",
	"DaemonSet", "Pod", "ReplicationController", "ReplicaSet", "Deployment",
	"HorizontalPodAutoscaler", "StatefulSet", "Job", "CronJob", "IngressClass", "Ingress",
	"APIService", "MutatingWebhookConfiguration", "ValidatingWebhookConfiguration",
})

func kindOrder(kinds []string) map[string]int {
	m := make(map[string]int, len(kinds))
	for i, k := range kinds {
		m[k] = i + 1
	}
	return m
}

// hookKindRank is kind's place in hookKindOrder; unlisted kinds share the
// last place.
func hookKindRank(kind string) int {
	if r, ok := hookKindOrder[kind]; ok {
		return r
	}
	return len(hookKindOrder) + 1
}
