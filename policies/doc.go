// Package policies holds kubeplan's built-in lint rules: one file per rule,
// each a pure function from the parsed manifest set to Violations.
//
// It owns what a rule checks, the field path a Violation points at and the
// message telling the user what to do. It does not own file:line:col (the
// lint package turns Violation.Path into a position with Object.Span), the
// per-object ignore annotation, or re-grading severities from the config:
// those are applied by the caller. Rules never touch a network or a cluster,
// never panic on odd shapes, and never put a Secret's values in a message.
//
// This package must not import lint; lint imports it.
package policies
