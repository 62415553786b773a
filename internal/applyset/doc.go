// Package applyset implements the wire format of ApplySets (KEP-3659), the
// labels and annotations that `kubectl apply --prune --applyset` writes on a
// parent object and on its members, so that kubeplan and kubectl can read each
// other's sets.
//
// A parent (a ConfigMap or a Secret) carries:
//
//	labels:
//	  applyset.kubernetes.io/id: applyset-<base64url(sha256(name.namespace.Kind.group))>-v1
//	annotations:
//	  applyset.kubernetes.io/tooling: kubeplan/v0.3.0            (kubectl writes kubectl/v1.32.4)
//	  applyset.kubernetes.io/contains-group-kinds: ConfigMap,Deployment.apps,Service
//	  applyset.kubernetes.io/additional-namespaces: other,team-b (namespaces besides the parent's)
//
// and every member carries the label applyset.kubernetes.io/part-of=<id>.
//
// The package is pure: it parses and formats metadata and never talks to a
// cluster. Mapping kinds to resources (and the deprecated group-resources
// annotation back to kinds) is left to the caller, who has discovery.
package applyset
