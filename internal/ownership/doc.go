// Package ownership owns the words plan and apply share about who owns a
// live object: Foreign reads the marks other tools leave (another ApplySet,
// a Helm release, a Flux Kustomization or HelmRelease, an Argo CD
// application), and ReplaceAnnotation is the manifests' consent to a
// delete-and-recreate.
//
// It never reads the cluster: plan looks the other set's parent up, and
// apply decides whether to adopt, refuse or prune.
package ownership
