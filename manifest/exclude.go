package manifest

// Excluded reports whether path matches one of the exclude globs, as Load
// applies them (see Options.Exclude).
func Excluded(path string, patterns []string) bool { return excluded(path, patterns) }

// KustomizationNames are the file names that make a directory a
// kustomization, in kustomize's order.
func KustomizationNames() []string { return append([]string(nil), kustomizationNames...) }
