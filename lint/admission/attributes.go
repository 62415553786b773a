package admission

import (
	"sync"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/authentication/user"
	corelisters "k8s.io/client-go/listers/core/v1"

	"github.com/kubeplan/kubeplan/manifest"
)

// attributes is the CREATE request the API server would see for o.
func (s *Set) attributes(o *manifest.Object) (admission.Attributes, resource) {
	res := s.res.lookup(o)
	ns := o.Namespace
	if !res.namespaced {
		ns = ""
	} else if ns == "" {
		ns = s.opts.Namespace
	}
	u := &unstructured.Unstructured{Object: defaulted(o)}
	gvk := schema.FromAPIVersionAndKind(o.APIVersion, o.Kind)
	return admission.NewAttributesRecord(u, nil, gvk, ns, o.Name, res.gvr, "", admission.Create,
		&metav1.CreateOptions{}, false, &user.DefaultInfo{}), res
}

// namespaces lists the Namespaces of the set. A namespace the set does
// not hold is taken to exist with only the label every Namespace carries,
// kubernetes.io/metadata.name.
type namespaces struct {
	known map[string]*corev1.Namespace
	other sync.Map // name -> *corev1.Namespace, made on first use
}

func (n *namespaces) add(o *manifest.Object) error {
	ns := &corev1.Namespace{}
	if err := decode(o, ns); err != nil {
		return err
	}
	if ns.Labels == nil {
		ns.Labels = map[string]string{}
	}
	ns.Labels[corev1.LabelMetadataName] = ns.Name
	n.known[ns.Name] = ns
	return nil
}

func (n *namespaces) List(sel labels.Selector) ([]*corev1.Namespace, error) {
	var out []*corev1.Namespace
	for _, ns := range n.known {
		if sel.Matches(labels.Set(ns.Labels)) {
			out = append(out, ns)
		}
	}
	return out, nil
}

func (n *namespaces) Get(name string) (*corev1.Namespace, error) {
	if ns, ok := n.known[name]; ok {
		return ns, nil
	}
	if name == "" {
		return nil, apierrors.NewNotFound(schema.GroupResource{Resource: "namespaces"}, name)
	}
	if ns, ok := n.other.Load(name); ok {
		return ns.(*corev1.Namespace), nil
	}
	ns, _ := n.other.LoadOrStore(name, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{corev1.LabelMetadataName: name}}})
	return ns.(*corev1.Namespace), nil
}

var _ corelisters.NamespaceLister = (*namespaces)(nil)
