// Command schemagen builds the Kubernetes artifacts that package internal/kubeapi
// embeds. It is run by `go generate ./internal/kubeapi/` and never by hand-edited
// data: everything comes from Go modules located with `go mod download -json`
// (they are not dependencies of kubeplan's go.mod).
//
// Outputs, written into the -out directory only when their bytes change:
//
//   - k8s-v<minor>.tar.gz: one standalone, strict JSON Schema (draft 4) per
//     GroupVersionKind of the OpenAPI v3 spec in k8s.io/kubernetes
//     (api/openapi-spec/v3), named as kubeconform's
//     "{{ .ResourceKind }}{{ .KindSuffix }}.json" template expects.
//   - apis.json.gz: the served resources of each indexed Kubernetes minor
//     (api/discovery in k8s.io/kubernetes) and the API lifecycle table of
//     k8s.io/api (zz_generated.prerelease-lifecycle.go files).
//   - zz_generated.go: the constants that tie package kubeapi to the above.
//
// Files, one job each: versions.go (which module versions), modules.go
// (finding module directories), openapi.go (reading the spec), strict.go
// (turning a spec schema into a standalone strict JSON Schema), discovery.go
// (served resources), lifecycle.go (API lifecycle), output.go (deterministic
// archives and files), main.go (wiring).
//
// Output is deterministic: re-running gives identical bytes.
package main
