// Package healthexpr owns the health rules in CEL for custom resources
// (kubeplan.yaml's health:): their shape, which is that of Flux's
// Kustomization healthCheckExprs (apiVersion, kind, current, inProgress,
// failed), so rules written for Flux work unchanged; reading them from
// YAML with the file:line:col of every expression; compiling them, with
// errors at the expression's line and column; the built-in rules for
// common operators (builtin.go), which a rule of the same group and kind
// replaces; evaluating a rule on a live object the way Flux does; checking
// the fields a rule reads against a CRD's schema; and the test files of
// `kubeplan health test` (kind: HealthTest).
//
// It reads no cluster and prints nothing: package health asks it for the
// rule of an object and evaluates it.
package healthexpr
