// Package lint checks manifests offline: YAML problems from loading, schema
// validation against the Kubernetes schemas built into the binary (through
// kubeconform's schema registry and the same JSON-schema engine), custom
// resources against the CRDs found in the set, API versions that a chosen
// Kubernetes version does not serve, object metadata as the API server
// validates it (meta.go), the values, relations and formats the API server
// validates beyond the schemas (package lint/semantic, rule invalid-value; measured
// against a real API server in docs/lint-differential.md), and the built-in
// policies of package policies.
//
// Its results are Findings: data about the input, each with file:line:col.
// An error returned by Run means the tool itself could not work.
package lint
