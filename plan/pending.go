package plan

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Pending is what other plans, applied first, will create: custom resource
// kinds ("Kind.group/version", as their CRDs declare them) and namespaces.
// A plan of a project that depends on those (kubeplan.yaml dependsOn)
// cannot dry-run the objects that need them, since the cluster does not
// have them yet; it plans them as created after them (Change.AfterCRD).
type Pending struct {
	Kinds      map[string]bool
	Namespaces map[string]bool
}

// PendingOf adds to pen what the plans create: the kinds of the CRDs and
// the Namespaces they create.
func PendingOf(pen Pending, plans ...*Plan) Pending {
	if pen.Kinds == nil {
		pen.Kinds = map[string]bool{}
	}
	if pen.Namespaces == nil {
		pen.Namespaces = map[string]bool{}
	}
	for _, pl := range plans {
		if pl == nil {
			continue
		}
		for _, ch := range pl.Changes {
			if ch.Action != Create {
				continue
			}
			switch {
			case ch.Ref.Group == "" && ch.Ref.Kind == "Namespace":
				pen.Namespaces[ch.Ref.Name] = true
			case ch.Ref.Group == "apiextensions.k8s.io" && ch.Ref.Kind == "CustomResourceDefinition":
				for _, k := range crdVersions(ch.Object) {
					pen.Kinds[k] = true
				}
			}
		}
	}
	return pen
}

// crdVersions lists "Kind.group/version" for every version a CRD serves.
func crdVersions(crd map[string]any) []string {
	spec, _ := crd["spec"].(map[string]any)
	group, _ := spec["group"].(string)
	names, _ := spec["names"].(map[string]any)
	kind, _ := names["kind"].(string)
	vs, _ := spec["versions"].([]any)
	var out []string
	for _, v := range vs {
		m, _ := v.(map[string]any)
		if name, _ := m["name"].(string); name != "" && kind != "" {
			out = append(out, schema.GroupKind{Group: group, Kind: kind}.String()+"/"+name)
		}
	}
	return out
}
