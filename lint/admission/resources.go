package admission

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeplan/kubeplan/internal/kubeapi"
	"github.com/kubeplan/kubeplan/manifest"
)

// resource is what the API server's REST mapping says about a kind.
type resource struct {
	gvr        schema.GroupVersionResource
	namespaced bool
}

// resources maps kinds to resources: the built-in ones of the Kubernetes
// version and the CustomResourceDefinitions of the set.
type resources struct {
	byKind map[schema.GroupVersionKind]resource
	equiv  runtime.EquivalentResourceRegistry
}

func newResources(kubeVersion string, objs []*manifest.Object) (*resources, error) {
	idx, err := kubeapi.Index()
	if err != nil {
		return nil, fmt.Errorf("reading the built-in API index: %w", err)
	}
	r := &resources{byKind: map[schema.GroupVersionKind]resource{}, equiv: runtime.NewEquivalentResourceRegistry()}
	if kubeVersion == "" {
		kubeVersion = kubeapi.KubeVersion
	}
	for _, kind := range idx.Kinds(kubeVersion) {
		for _, a := range idx.ByKind(kubeVersion, kind) {
			r.add(schema.GroupVersionKind{Group: a.Group, Version: a.Version, Kind: a.Kind}, a.Resource, a.Namespaced)
		}
	}
	for _, o := range objs {
		if !IsCRD(o) {
			continue
		}
		g, plural, kind := o.GetString("spec", "group"), o.GetString("spec", "names", "plural"), o.GetString("spec", "names", "kind")
		namespaced := o.GetString("spec", "scope") != "Cluster"
		vs, _ := o.Get("spec", "versions")
		list, _ := vs.([]any)
		for _, v := range list {
			m, _ := v.(map[string]any)
			if name, _ := m["name"].(string); name != "" && served(m) {
				r.add(schema.GroupVersionKind{Group: g, Version: name, Kind: kind}, plural, namespaced)
			}
		}
	}
	return r, nil
}

// IsCRD reports whether o is a CustomResourceDefinition.
func IsCRD(o *manifest.Object) bool {
	return o.Kind == "CustomResourceDefinition" && o.Group() == "apiextensions.k8s.io"
}

// CRDSummary is what Load needs of the CustomResourceDefinition o (its
// group, names, scope and versions, not its schemas): lint keeps it of
// every CRD it reads, for paramKinds, without keeping the CRD.
func CRDSummary(o *manifest.Object) *manifest.Object {
	spec := map[string]any{
		"group": o.GetString("spec", "group"),
		"scope": o.GetString("spec", "scope"),
		"names": map[string]any{"plural": o.GetString("spec", "names", "plural"), "kind": o.GetString("spec", "names", "kind")},
	}
	var versions []any
	vs, _ := o.Get("spec", "versions")
	list, _ := vs.([]any)
	for _, v := range list {
		if m, _ := v.(map[string]any); m != nil {
			versions = append(versions, map[string]any{"name": m["name"], "served": m["served"]})
		}
	}
	spec["versions"] = versions
	return &manifest.Object{File: o.File, APIVersion: o.APIVersion, Kind: o.Kind, Name: o.Name,
		Content: map[string]any{"apiVersion": o.APIVersion, "kind": o.Kind, "metadata": map[string]any{"name": o.Name}, "spec": spec}}
}

func served(m map[string]any) bool {
	s, ok := m["served"].(bool)
	return !ok || s
}

func (r *resources) add(gvk schema.GroupVersionKind, plural string, namespaced bool) {
	gvr := gvk.GroupVersion().WithResource(plural)
	r.byKind[gvk] = resource{gvr: gvr, namespaced: namespaced}
	r.equiv.RegisterKindFor(gvr, "", gvk)
}

// lookup finds the resource of o's kind; an unknown kind is guessed the
// way kubectl guesses (lowercase plural, namespaced when o has a
// namespace).
func (r *resources) lookup(o *manifest.Object) resource {
	gvk := schema.FromAPIVersionAndKind(o.APIVersion, o.Kind)
	if res, ok := r.byKind[gvk]; ok {
		return res
	}
	plural, _ := meta.UnsafeGuessKindToResource(gvk)
	return resource{gvr: plural, namespaced: o.Namespace != ""}
}

// kindKnown reports whether the kind apiVersion/kind is served.
func (r *resources) kindKnown(apiVersion, kind string) (resource, bool) {
	res, ok := r.byKind[schema.FromAPIVersionAndKind(apiVersion, kind)]
	return res, ok
}

// objectInterfaces is what admission's matching and conversion need:
// unstructured objects, and "conversion" between versions of one resource
// that only renames the apiVersion (matchPolicy Equivalent, best effort).
type objectInterfaces struct {
	equiv runtime.EquivalentResourceMapper
}

func (o objectInterfaces) GetObjectCreater() runtime.ObjectCreater     { return creater{} }
func (o objectInterfaces) GetObjectTyper() runtime.ObjectTyper         { return nil }
func (o objectInterfaces) GetObjectDefaulter() runtime.ObjectDefaulter { return nil }
func (o objectInterfaces) GetObjectConvertor() runtime.ObjectConvertor { return convertor{} }
func (o objectInterfaces) GetEquivalentResourceMapper() runtime.EquivalentResourceMapper {
	return o.equiv
}

type creater struct{}

func (creater) New(gvk schema.GroupVersionKind) (runtime.Object, error) {
	u := &unstructured.Unstructured{Object: map[string]any{}}
	u.SetGroupVersionKind(gvk)
	return u, nil
}

type convertor struct{}

func (convertor) Convert(in, out, _ any) error {
	src, ok1 := in.(*unstructured.Unstructured)
	dst, ok2 := out.(*unstructured.Unstructured)
	if !ok1 || !ok2 {
		return fmt.Errorf("cannot convert %T to %T offline", in, out)
	}
	gvk := dst.GroupVersionKind()
	dst.Object = runtime.DeepCopyJSON(src.Object)
	dst.SetGroupVersionKind(gvk)
	return nil
}

func (convertor) ConvertToVersion(in runtime.Object, _ runtime.GroupVersioner) (runtime.Object, error) {
	return in, nil
}

func (convertor) ConvertFieldLabel(_ schema.GroupVersionKind, label, value string) (string, string, error) {
	return label, value, nil
}

// kindOf names a kind for messages ("apps/v1 Deployment").
func kindOf(apiVersion, kind string) string {
	return strings.TrimSpace(apiVersion + " " + kind)
}
