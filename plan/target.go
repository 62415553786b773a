package plan

import (
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeplan/kubeplan/manifest"
)

// target is one object of the set, ready to be dry-run: its REST mapping,
// its namespace filled in, and the ApplySet label added.
type target struct {
	obj     *unstructured.Unstructured
	src     *manifest.Object
	ref     Ref
	gvr     schema.GroupVersionResource
	scoped  bool // namespaced
	pending bool // its CRD is created by this plan: no REST mapping yet
	kept    []Kept
	// waitsFor names what a pending target waits for (Change.WaitsFor).
	waitsFor string
}

// prepare maps every object to a REST resource and applies the namespace
// rules: objects without a namespace get -n, objects naming another
// namespace are errors.
func (p *planner) prepare(objs []*manifest.Object) ([]*target, error) {
	crds := crdKinds(objs)
	for k := range p.opts.Pending.Kinds {
		crds[k] = true
	}
	var errs Errors
	var out []*target
	for _, o := range objs {
		u := &unstructured.Unstructured{Object: runtime.DeepCopyJSON(o.Content)}
		gvk := u.GroupVersionKind()
		t := &target{obj: u, src: o, ref: Ref{Group: gvk.Group, Version: gvk.Version, Kind: gvk.Kind, Name: u.GetName(), Namespace: u.GetNamespace()}}
		fail := func(err error) { errs = append(errs, &ObjectError{Ref: t.ref, Source: sourceOf(o), Err: err}) }
		if u.GetName() == "" && u.GetGenerateName() != "" {
			// An Argo CD hook often has only a generateName: Argo CD
			// creates a new one on every sync. kubeplan owns what it applies
			// by name.
			fail(fmt.Errorf("has metadata.generateName %q but no metadata.name: kubeplan applies and prunes objects by name; give it a name (a hook runs again when it changes: BeforeHookCreation replaces it)", u.GetGenerateName()))
			continue
		}
		m, err := p.c.Mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
		if err != nil {
			if meta.IsNoMatchError(err) && crds[gvk.GroupKind().String()+"/"+gvk.Version] {
				t.pending = true
				t.scoped = true
				if u.GetNamespace() == "" {
					u.SetNamespace(p.opts.Namespace)
					t.ref.Namespace = p.opts.Namespace
				}
				t.waitsFor = WaitsForCRD
				if ns := u.GetNamespace(); p.opts.Pending.Namespaces[ns] {
					t.waitsFor += " and Namespace " + ns
				}
				out = append(out, t)
				continue
			}
			if meta.IsNoMatchError(err) {
				fail(fmt.Errorf("the cluster does not serve %s %s (is its CustomResourceDefinition installed?)", u.GetAPIVersion(), gvk.Kind))
			} else {
				fail(fmt.Errorf("looking up %s: %w", gvk.Kind, err))
			}
			continue
		}
		t.gvr, t.ref.Resource = m.Resource, m.Resource.Resource
		t.scoped = m.Scope.Name() == meta.RESTScopeNameNamespace
		switch {
		case !t.scoped && u.GetNamespace() != "":
			fail(fmt.Errorf("%s is cluster-scoped but names namespace %q; remove metadata.namespace", gvk.Kind, u.GetNamespace()))
			continue
		case t.scoped && u.GetNamespace() == "":
			u.SetNamespace(p.opts.Namespace)
			t.ref.Namespace = p.opts.Namespace
		case t.scoped && u.GetNamespace() != p.opts.Namespace && !p.opts.AllowOtherNamespaces && o.Chart == "":
			// (a Helm chart's template that names a namespace means it, as in Helm)
			fail(fmt.Errorf("names namespace %q but the plan is for namespace %q; remove metadata.namespace or plan with -n %s", u.GetNamespace(), p.opts.Namespace, u.GetNamespace()))
			continue
		}
		// A namespace a dependency creates does not exist yet: nothing in
		// it can be dry-run.
		if t.pending = t.scoped && p.opts.Pending.Namespaces[u.GetNamespace()]; t.pending {
			t.waitsFor = "Namespace " + u.GetNamespace()
		}
		out = append(out, t)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return out, nil
}

// crdKinds lists "Kind.group/version" of every CRD version in the set.
func crdKinds(objs []*manifest.Object) map[string]bool {
	out := map[string]bool{}
	for _, o := range objs {
		if o.Kind != "CustomResourceDefinition" || o.Group() != "apiextensions.k8s.io" {
			continue
		}
		for _, k := range crdVersions(o.Content) {
			out[k] = true
		}
	}
	return out
}

func sourceOf(o *manifest.Object) Source {
	if o == nil {
		return Source{}
	}
	p := o.Start()
	return Source{File: o.File, Line: p.Line, Col: p.Col}
}
