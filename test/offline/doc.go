// Package offline proves that a program which renders Helm charts through
// manifest/helm, and links no kustomize, still cannot let helm code reach
// the network: the guard of internal/netguard comes with manifest/helm
// itself. Its test binary imports manifest/helm and nothing of kubeplan
// that builds kustomizations, and never imports internal/netguard itself.
package offline
