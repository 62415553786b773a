// Package yamlnode reads kubeplan's own YAML files (kubeplan.yaml, guard
// rule files) node by node, so that every error names the file, line and
// column of the node at fault and says what was wanted. It is a leaf:
// internal/config and internal/guard decode their keys with it.
package yamlnode
