// Package lint checks manifests offline: YAML problems from loading, schema
// validation against the Kubernetes schemas built into the binary (read
// through kubeconform's schema registry, validated by fastSchema, a
// validator for the part of JSON Schema those schemas use that reports what
// jsonschema/v6 reports and is tested against it on every built-in schema:
// fastschema*.go; a schema outside that part goes to jsonschema/v6,
// kubeconform's engine), custom
// resources against the CRDs found in the set (by fastSchema too, when
// plainlyValid proved the CRD's schema valid and it is in fastSchema's
// part; by jsonschema/v6 otherwise), API versions that a chosen
// Kubernetes version does not serve, object metadata as the API server
// validates it (meta.go), the values, relations and formats the API server
// validates beyond the schemas (package lint/semantic, rule invalid-value; measured
// against a real API server in docs/lint-differential.md), and the built-in
// policies of package policies.
//
// Check is the one entry point, for a plain lint and for a project of a run
// (through workspace.Lint and workspace.ProjectLint): it streams the set
// (objects dropped once checked) or keeps it (KeepObjects, for plan). A
// directory of many projects is linted project by project (projects.go,
// fileprojects.go), so overlays are built on their own and a patch is never
// read as a manifest.
//
// Its results are Findings: data about the input, each with file:line:col.
// An error returned by Check means the tool itself could not work. lint
// never connects to a cluster (a chart's lookup reads only what the caller
// hands it in Input.Load, nothing in a plain lint) nor the network, and never
// prints: render shows a Report.
package lint
