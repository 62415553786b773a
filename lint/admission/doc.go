// Package admission evaluates ValidatingAdmissionPolicies and their
// bindings (admissionregistration.k8s.io/v1) offline, the way the API server
// does: the policies, bindings, parameter objects and Namespaces come from
// the linted set (or --policies, or the policies: key of kubeplan.yaml), and
// every other object is judged as a CREATE request.
//
// Compilation, the CEL environment and its cost limits, matchConditions and
// the evaluation of expressions are the API server's own libraries
// (k8s.io/apiserver's CEL and admission packages, imported); judge.go turns
// the evaluations into outcomes by the API server's rules (which message a
// violation gets, what an error means under each failurePolicy), and
// test/admissiondiff holds it to a real API server. This package supplies what the server gets from its informers:
// the resource of each kind (internal/kubeapi and the CRDs in the set), the
// Namespaces' labels and the parameter objects.
//
// Expressions on authorizer or request.userInfo depend on who sends the
// request: they are reported as not evaluable offline, never guessed.
//
// Before a policy or binding judges anything it is checked as the API
// server checks its create: validate.go decodes it strictly (unknown
// fields, wrong types) and validaterules.go holds the API server's rules
// (required fields, allowed values, reserved names); compile.go compiles
// its expressions. One the API server would refuse takes no part, and
// test/admissiondiff holds these checks to a real API server too.
//
// Files: load.go (Load, the Set), decode.go (the kinds read, defaults),
// validate.go and validaterules.go (what the API server refuses),
// compile.go (compiling, compile problems),
// offline.go (what cannot be evaluated offline), defaults.go (the API
// server's defaults policies most often read), resources.go (kinds to
// resources and scopes), attributes.go (the admission request of an
// object), params.go (paramRef), judge.go (a policy's outcomes for one
// object), check.go (Check, the Verdicts),
// message.go (the API server's texts), fieldpath.go (a validation's
// fieldPath as a field path), policytest.go (kubeplan policy test).
package admission
