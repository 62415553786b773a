// Package config reads .kubeplan.yaml, the per-repository settings file:
// which files to skip, extra CRDs, the Kubernetes version, and how each lint
// rule is graded. Errors name the file, line and column.
package config
