package kustomize

// The names the external tests (package kustomize_test) reach inside the
// package; they exist in test builds only, so the package's API stays what
// other packages use.
var (
	BuildKustomizationWith = buildKustomizationWith
	DecodeNode             = decodeNode
	DeprecatedProblems     = deprecatedProblems
	NewRootFS              = newRootFS
	NewSourceIndex         = newSourceIndex
	RunKustomize           = runKustomize
)

// ReadKustomization is readKustomization, for DeprecatedProblems' input.
type ReadKustomization = readKustomization
