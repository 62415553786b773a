package kubeapi

// PodSecurityAdmission is what replaces PodSecurityPolicy: not an API, an
// admission controller configured by labels on the Namespace.
const PodSecurityAdmission = "Pod Security Admission (pod-security.kubernetes.io labels on the Namespace)"

// guide is the Kubernetes "Deprecated API Migration Guide"
// (kubernetes.io/docs/reference/using-api/deprecation-guide, removals from
// 1.16 to 1.32; nothing later is listed there) as data, kept by hand. It
// completes and corrects the lifecycle table generated from k8s.io/api's
// prerelease-lifecycle markers, which:
//
//   - knows nothing of types no longer in k8s.io/api (PodSecurityPolicy,
//     autoscaling/v2beta1 and v2beta2) or living in other modules
//     (apiextensions.k8s.io, apiregistration.k8s.io);
//   - names a replacement that is itself removed (flowcontrol v1beta1 ->
//     v1beta3), a List kind (IngressClass -> IngressClassList), or none
//     (events.k8s.io/v1beta1 Event, node.k8s.io/v1beta1 RuntimeClass).
//
// Each row names the replacement the guide names, the last step of the
// chain where the guide's own step is removed too (flowcontrol ->
// flowcontrol.apiserver.k8s.io/v1), so it is served by every Kubernetes
// version kubeplan indexes. A row's replacement wins over the markers'; its releases fill in
// where the markers have none (a test checks that the two agree).
var guide = []Lifecycle{
	// v1.16
	{Group: "extensions", Version: "v1beta1", Kind: "NetworkPolicy", Deprecated: "1.9", Removed: "1.16", Replacement: "networking.k8s.io/v1 NetworkPolicy"},
	{Group: "extensions", Version: "v1beta1", Kind: "DaemonSet", Deprecated: "1.8", Removed: "1.16", Replacement: "apps/v1 DaemonSet"},
	{Group: "apps", Version: "v1beta2", Kind: "DaemonSet", Deprecated: "1.9", Removed: "1.16", Replacement: "apps/v1 DaemonSet"},
	{Group: "extensions", Version: "v1beta1", Kind: "Deployment", Deprecated: "1.8", Removed: "1.16", Replacement: "apps/v1 Deployment"},
	{Group: "apps", Version: "v1beta1", Kind: "Deployment", Deprecated: "1.8", Removed: "1.16", Replacement: "apps/v1 Deployment"},
	{Group: "apps", Version: "v1beta2", Kind: "Deployment", Deprecated: "1.9", Removed: "1.16", Replacement: "apps/v1 Deployment"},
	{Group: "apps", Version: "v1beta1", Kind: "StatefulSet", Deprecated: "1.8", Removed: "1.16", Replacement: "apps/v1 StatefulSet"},
	{Group: "apps", Version: "v1beta2", Kind: "StatefulSet", Deprecated: "1.9", Removed: "1.16", Replacement: "apps/v1 StatefulSet"},
	{Group: "extensions", Version: "v1beta1", Kind: "ReplicaSet", Deprecated: "1.8", Removed: "1.16", Replacement: "apps/v1 ReplicaSet"},
	{Group: "apps", Version: "v1beta1", Kind: "ReplicaSet", Deprecated: "1.8", Removed: "1.16", Replacement: "apps/v1 ReplicaSet"},
	{Group: "apps", Version: "v1beta2", Kind: "ReplicaSet", Deprecated: "1.9", Removed: "1.16", Replacement: "apps/v1 ReplicaSet"},
	{Group: "extensions", Version: "v1beta1", Kind: "PodSecurityPolicy", Deprecated: "1.11", Removed: "1.16", Replacement: PodSecurityAdmission},

	// v1.22
	{Group: "admissionregistration.k8s.io", Version: "v1beta1", Kind: "MutatingWebhookConfiguration", Deprecated: "1.16", Removed: "1.22", Replacement: "admissionregistration.k8s.io/v1 MutatingWebhookConfiguration"},
	{Group: "admissionregistration.k8s.io", Version: "v1beta1", Kind: "ValidatingWebhookConfiguration", Deprecated: "1.16", Removed: "1.22", Replacement: "admissionregistration.k8s.io/v1 ValidatingWebhookConfiguration"},
	{Group: "apiextensions.k8s.io", Version: "v1beta1", Kind: "CustomResourceDefinition", Deprecated: "1.16", Removed: "1.22", Replacement: "apiextensions.k8s.io/v1 CustomResourceDefinition"},
	{Group: "apiregistration.k8s.io", Version: "v1beta1", Kind: "APIService", Deprecated: "1.19", Removed: "1.22", Replacement: "apiregistration.k8s.io/v1 APIService"},
	{Group: "authentication.k8s.io", Version: "v1beta1", Kind: "TokenReview", Deprecated: "1.19", Removed: "1.22", Replacement: "authentication.k8s.io/v1 TokenReview"},
	{Group: "authorization.k8s.io", Version: "v1beta1", Kind: "LocalSubjectAccessReview", Deprecated: "1.19", Removed: "1.22", Replacement: "authorization.k8s.io/v1 LocalSubjectAccessReview"},
	{Group: "authorization.k8s.io", Version: "v1beta1", Kind: "SelfSubjectAccessReview", Deprecated: "1.19", Removed: "1.22", Replacement: "authorization.k8s.io/v1 SelfSubjectAccessReview"},
	{Group: "authorization.k8s.io", Version: "v1beta1", Kind: "SubjectAccessReview", Deprecated: "1.19", Removed: "1.22", Replacement: "authorization.k8s.io/v1 SubjectAccessReview"},
	{Group: "authorization.k8s.io", Version: "v1beta1", Kind: "SelfSubjectRulesReview", Deprecated: "1.19", Removed: "1.22", Replacement: "authorization.k8s.io/v1 SelfSubjectRulesReview"},
	{Group: "certificates.k8s.io", Version: "v1beta1", Kind: "CertificateSigningRequest", Deprecated: "1.19", Removed: "1.22", Replacement: "certificates.k8s.io/v1 CertificateSigningRequest"},
	{Group: "coordination.k8s.io", Version: "v1beta1", Kind: "Lease", Deprecated: "1.19", Removed: "1.22", Replacement: "coordination.k8s.io/v1 Lease"},
	{Group: "extensions", Version: "v1beta1", Kind: "Ingress", Deprecated: "1.14", Removed: "1.22", Replacement: "networking.k8s.io/v1 Ingress"},
	{Group: "networking.k8s.io", Version: "v1beta1", Kind: "Ingress", Deprecated: "1.19", Removed: "1.22", Replacement: "networking.k8s.io/v1 Ingress"},
	{Group: "networking.k8s.io", Version: "v1beta1", Kind: "IngressClass", Deprecated: "1.19", Removed: "1.22", Replacement: "networking.k8s.io/v1 IngressClass"},
	{Group: "rbac.authorization.k8s.io", Version: "v1beta1", Kind: "ClusterRole", Deprecated: "1.17", Removed: "1.22", Replacement: "rbac.authorization.k8s.io/v1 ClusterRole"},
	{Group: "rbac.authorization.k8s.io", Version: "v1beta1", Kind: "ClusterRoleBinding", Deprecated: "1.17", Removed: "1.22", Replacement: "rbac.authorization.k8s.io/v1 ClusterRoleBinding"},
	{Group: "rbac.authorization.k8s.io", Version: "v1beta1", Kind: "Role", Deprecated: "1.17", Removed: "1.22", Replacement: "rbac.authorization.k8s.io/v1 Role"},
	{Group: "rbac.authorization.k8s.io", Version: "v1beta1", Kind: "RoleBinding", Deprecated: "1.17", Removed: "1.22", Replacement: "rbac.authorization.k8s.io/v1 RoleBinding"},
	{Group: "scheduling.k8s.io", Version: "v1beta1", Kind: "PriorityClass", Deprecated: "1.14", Removed: "1.22", Replacement: "scheduling.k8s.io/v1 PriorityClass"},
	{Group: "storage.k8s.io", Version: "v1beta1", Kind: "CSIDriver", Deprecated: "1.19", Removed: "1.22", Replacement: "storage.k8s.io/v1 CSIDriver"},
	{Group: "storage.k8s.io", Version: "v1beta1", Kind: "CSINode", Deprecated: "1.17", Removed: "1.22", Replacement: "storage.k8s.io/v1 CSINode"},
	{Group: "storage.k8s.io", Version: "v1beta1", Kind: "StorageClass", Deprecated: "1.19", Removed: "1.22", Replacement: "storage.k8s.io/v1 StorageClass"},
	{Group: "storage.k8s.io", Version: "v1beta1", Kind: "VolumeAttachment", Deprecated: "1.19", Removed: "1.22", Replacement: "storage.k8s.io/v1 VolumeAttachment"},

	// v1.25
	{Group: "batch", Version: "v1beta1", Kind: "CronJob", Deprecated: "1.21", Removed: "1.25", Replacement: "batch/v1 CronJob"},
	{Group: "discovery.k8s.io", Version: "v1beta1", Kind: "EndpointSlice", Deprecated: "1.21", Removed: "1.25", Replacement: "discovery.k8s.io/v1 EndpointSlice"},
	{Group: "events.k8s.io", Version: "v1beta1", Kind: "Event", Deprecated: "1.22", Removed: "1.25", Replacement: "events.k8s.io/v1 Event"},
	{Group: "autoscaling", Version: "v2beta1", Kind: "HorizontalPodAutoscaler", Deprecated: "1.22", Removed: "1.25", Replacement: "autoscaling/v2 HorizontalPodAutoscaler"},
	{Group: "policy", Version: "v1beta1", Kind: "PodDisruptionBudget", Deprecated: "1.21", Removed: "1.25", Replacement: "policy/v1 PodDisruptionBudget"},
	{Group: "policy", Version: "v1beta1", Kind: "PodSecurityPolicy", Deprecated: "1.21", Removed: "1.25", Replacement: PodSecurityAdmission},
	{Group: "node.k8s.io", Version: "v1beta1", Kind: "RuntimeClass", Deprecated: "1.22", Removed: "1.25", Replacement: "node.k8s.io/v1 RuntimeClass"},

	// v1.26
	{Group: "flowcontrol.apiserver.k8s.io", Version: "v1beta1", Kind: "FlowSchema", Deprecated: "1.23", Removed: "1.26", Replacement: "flowcontrol.apiserver.k8s.io/v1 FlowSchema"},
	{Group: "flowcontrol.apiserver.k8s.io", Version: "v1beta1", Kind: "PriorityLevelConfiguration", Deprecated: "1.23", Removed: "1.26", Replacement: "flowcontrol.apiserver.k8s.io/v1 PriorityLevelConfiguration"},
	{Group: "autoscaling", Version: "v2beta2", Kind: "HorizontalPodAutoscaler", Deprecated: "1.23", Removed: "1.26", Replacement: "autoscaling/v2 HorizontalPodAutoscaler"},

	// v1.27
	{Group: "storage.k8s.io", Version: "v1beta1", Kind: "CSIStorageCapacity", Deprecated: "1.24", Removed: "1.27", Replacement: "storage.k8s.io/v1 CSIStorageCapacity"},

	// v1.29
	{Group: "flowcontrol.apiserver.k8s.io", Version: "v1beta2", Kind: "FlowSchema", Deprecated: "1.26", Removed: "1.29", Replacement: "flowcontrol.apiserver.k8s.io/v1 FlowSchema"},
	{Group: "flowcontrol.apiserver.k8s.io", Version: "v1beta2", Kind: "PriorityLevelConfiguration", Deprecated: "1.26", Removed: "1.29", Replacement: "flowcontrol.apiserver.k8s.io/v1 PriorityLevelConfiguration"},

	// v1.32
	{Group: "flowcontrol.apiserver.k8s.io", Version: "v1beta3", Kind: "FlowSchema", Deprecated: "1.29", Removed: "1.32", Replacement: "flowcontrol.apiserver.k8s.io/v1 FlowSchema"},
	{Group: "flowcontrol.apiserver.k8s.io", Version: "v1beta3", Kind: "PriorityLevelConfiguration", Deprecated: "1.29", Removed: "1.32", Replacement: "flowcontrol.apiserver.k8s.io/v1 PriorityLevelConfiguration"},
}

// Guide returns the hand-kept rows of the deprecation guide (see guide).
func Guide() []Lifecycle { return append([]Lifecycle(nil), guide...) }

// mergeGuide lays the guide's rows over the generated lifecycle table.
func mergeGuide(table map[gvk]Lifecycle) {
	for _, g := range guide {
		k := gvk{g.Group, g.Version, g.Kind}
		l, ok := table[k]
		if !ok {
			l = Lifecycle{Group: g.Group, Version: g.Version, Kind: g.Kind}
		}
		if l.Deprecated == "" {
			l.Deprecated = g.Deprecated
		}
		if l.Removed == "" {
			l.Removed = g.Removed
		}
		if g.Replacement != "" {
			l.Replacement = g.Replacement
		}
		table[k] = l
	}
}
