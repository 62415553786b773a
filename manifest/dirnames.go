package manifest

// KustomizationNames are the file names that make a directory a
// kustomization, in kustomize's order.
func KustomizationNames() []string { return append([]string(nil), kustomizationNames...) }

var kustomizationNames = []string{"kustomization.yaml", "kustomization.yml", "Kustomization"}
