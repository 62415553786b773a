package policies

import (
	"fmt"

	"github.com/kubeplan/kubeplan/manifest"
)

var namespaceMismatch = Rule{
	ID:          "namespace-mismatch",
	Severity:    SeverityError,
	Description: "metadata.namespace must match --namespace when both are given (a Helm chart's templates may name other namespaces, as Helm allows)",
	Check:       eachObject(checkNamespaceMismatch),
}

func checkNamespaceMismatch(o *manifest.Object, opts Options) []Violation {
	if opts.Namespace == "" || o.Namespace == "" || o.Namespace == opts.Namespace {
		return nil
	}
	if o.Chart != "" {
		// A chart's template that names a namespace means it (cert-manager's
		// RoleBinding in kube-system): Helm applies it there too.
		return nil
	}
	from := opts.NamespaceFrom
	if from == "" {
		from = "--namespace"
	}
	return []Violation{{
		Object: o,
		Path:   []string{"metadata", "namespace"},
		Message: fmt.Sprintf("metadata.namespace is %q but %s is %q; remove metadata.namespace to use %s, or change one of them so they agree",
			o.Namespace, from, opts.Namespace, from),
	}}
}
