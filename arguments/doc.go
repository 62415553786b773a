// Package arguments is kubeplan's command-line contract without cobra:
// the flags each verb takes (Bind on a pflag.FlagSet), their checks, the
// values they become for the engine (workspace.Overrides, plan.Options,
// apply.Options, serve.Options) and each verb's help text (help/*.txt).
//
// It never opens a file, a cluster or a repository, and never prints:
// cmd/kubeplan wires a verb's arguments to one engine call and one view.
// Everything here is testable without a command tree.
package arguments
