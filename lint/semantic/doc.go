// Package semantic checks a built-in Kubernetes object the way the API
// server validates it before storing it (k8s.io/kubernetes
// pkg/apis/*/validation): the values, relations and formats its JSON schema
// cannot express (quantities, enums, ports, names of containers, ports and
// volumes, selectors that miss the pod template, duplicates, references to
// missing volumes, required fields the schema does not mark). Check returns
// Violations, each with the field's path and the server's reason; lint
// turns them into findings of rule invalid-value at file:line:col, as it
// does with the Violations of package policies.
//
// It also owns the fast forms of apimachinery's name validators
// (DNS1123Label, QualifiedName, ...) and FieldPath, how a field is named.
//
// It reads only the object it is given: it never reads a file, the
// schemas or a cluster, and never makes a finding or prints.
package semantic
