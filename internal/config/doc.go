// Package config reads .kubeplan.yaml, the per-repository settings file:
// which files to skip, extra CRDs, the Kubernetes version, and how each lint
// rule is graded. Errors name the file, line and column.
//
// Discover finds the file from a directory up to the git repository's root
// (Load reads the one --config names); paths in it are relative to its
// directory, and Resolve, ResolveGlob, CRDPaths and ExcludePatterns turn
// them into paths usable from the working directory.
package config
