// Package orphans finds the objects in a project's namespaces that nobody
// manages (kubeplan orphans): objects no ApplySet, Helm release, Flux or
// Argo CD owns (ownership.Owner), that no controller made (no
// ownerReferences), and that Kubernetes or a well-known controller did
// not make by itself (madeBy, kubernetes.go): what is left over from
// manual fixes or from a tool that was removed.
//
// It only reads, and only metadata (the metadata client), so no Secret's
// data ever reaches it: one LIST per listable namespaced resource type
// per namespace, from discovery (resources.go). A type the identity may
// not list is "not checked", not an error. It renders nothing; run calls
// it per project and render shows the Result.
package orphans
