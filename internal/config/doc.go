// Package config reads kubeplan.yaml, the per-repository settings file:
// which files to skip, extra CRDs, the Kubernetes version, how each lint
// rule is graded, which paths are never projects, the settings every
// project gets (defaults, its change windows among them), the projects
// declared one by one (projects) and the rules over plans (guards, with
// the rule files it names, read confined to the checkout).
// Unknown keys and values of the wrong type are errors naming the file,
// line and column; docs/config.md describes every key.
//
// Discover finds the file from a directory up to the git repository's root
// (Load reads the one --config names); the legacy name .kubeplan.yaml is
// still read, with Config.Legacy set. Paths in the file are relative to its
// directory, and Resolve, ResolveGlob, CRDPaths and ExcludePatterns turn
// them into paths usable from the working directory. Package project turns
// the declared projects into projects (project.Load).
package config
