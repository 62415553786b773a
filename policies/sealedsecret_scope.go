package policies

import (
	"fmt"

	"github.com/kubeplan/kubeplan/manifest"
)

// The scope annotations of Bitnami's sealed-secrets controller.
const (
	sealedClusterWide   = "sealedsecrets.bitnami.com/cluster-wide"
	sealedNamespaceWide = "sealedsecrets.bitnami.com/namespace-wide"
)

var sealedSecretScope = Rule{
	ID:          "sealedsecret-scope",
	Severity:    SeverityError,
	Description: "a SealedSecret applied to another namespace (or, in strict scope, under another name) than it was sealed for cannot be unsealed",
	Check:       eachObject(checkSealedSecretScope),
}

// checkSealedSecretScope compares where a SealedSecret is applied with
// where it was sealed for: kubeseal writes the name and namespace into
// spec.template.metadata, and the strict scope (the default) binds both
// into the encryption, the namespace-wide scope the namespace. A
// kustomize overlay that moves it to another namespace changes
// metadata.namespace only: the controller then fails to decrypt it.
func checkSealedSecretScope(o *manifest.Object, opts Options) []Violation {
	if o.Kind != "SealedSecret" || o.Group() != "bitnami.com" {
		return nil
	}
	ann := o.Annotations()
	tmpl := func(f string) string { return o.GetString("spec", "template", "metadata", f) }
	tmplAnn := func(k string) string {
		v, _ := o.Get("spec", "template", "metadata", "annotations", k)
		s, _ := v.(string)
		return s
	}
	if ann[sealedClusterWide] == "true" || tmplAnn(sealedClusterWide) == "true" {
		return nil
	}
	scope := "strict"
	if ann[sealedNamespaceWide] == "true" || tmplAnn(sealedNamespaceWide) == "true" {
		scope = "namespace-wide"
	}
	ns := o.Namespace
	if ns == "" {
		ns = opts.Namespace
	}
	var out []Violation
	if sealed := tmpl("namespace"); sealed != "" && ns != "" && sealed != ns {
		out = append(out, Violation{Object: o, Path: []string{"spec", "template", "metadata", "namespace"},
			Message: fmt.Sprintf("sealed for namespace %q but applied to namespace %q: the controller cannot unseal it (the %s scope binds the namespace into the encryption); seal it again with kubeseal --namespace %s, or seal it with --scope cluster-wide", sealed, ns, scope, ns)})
	}
	if sealed := tmpl("name"); scope == "strict" && sealed != "" && sealed != o.Name {
		out = append(out, Violation{Object: o, Path: []string{"spec", "template", "metadata", "name"},
			Message: fmt.Sprintf("sealed for the name %q but named %q: the controller cannot unseal it (the strict scope binds the name into the encryption); seal it again under this name, or with --scope namespace-wide", sealed, o.Name)})
	}
	return out
}
