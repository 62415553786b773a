// Package kubeapi owns kubeplan's offline knowledge of the built-in
// Kubernetes API, generated from Go modules and embedded in the binary:
//
//   - the JSON schemas of every built-in GroupVersionKind of Kubernetes
//     KubeVersion, strict and standalone like yannh/kubernetes-json-schema's
//     "-standalone-strict" flavour, which Dir unpacks once into a
//     content-addressed cache directory for kubeconform
//     (schema location Dir() + "/" + FileTemplate);
//   - an index (Index) of the resources each Kubernetes minor in Versions
//     serves, and of the introduced/deprecated/removed releases of every API
//     type, for the deprecated-API checks, completed and corrected by the
//     Kubernetes deprecation guide kept by hand in guide.go (Guide).
//
// The artifacts (k8s-v<minor>.tar.gz, apis.json.gz, zz_generated.go) are
// produced by tools/schemagen through `go generate ./internal/kubeapi/` and
// must never be edited by hand. Schema files follow kubeconform v0.8.0's
// naming: "deployment-apps-v1.json", "service-v1.json".
//
// Dir honours KUBEPLAN_CACHE_DIR, else the user cache directory, else a
// per-user directory under os.TempDir().
//
// kubeapi is a leaf: it imports no kubeplan package but internal/cachedir,
// so manifest, internal/config, lint, run and cmd/kubeplan all read it
// without an import running upward. It never validates an object or makes a
// finding (that is lint), and never touches a network.
package kubeapi
