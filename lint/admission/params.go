package admission

import (
	"errors"
	"fmt"

	v1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubeplan/kubeplan/manifest"
)

// params holds the objects of the set by apiVersion and kind: any of them
// may be a policy's parameter.
type params map[string][]*manifest.Object

func paramKey(apiVersion, kind string) string { return apiVersion + " " + kind }

func (p params) add(o *manifest.Object) {
	k := paramKey(o.APIVersion, o.Kind)
	p[k] = append(p[k], o)
}

// collect finds the parameters of a binding for a request in namespace,
// as the API server's generic.CollectParams does, with the same errors.
func (s *Set) collect(kind *v1.ParamKind, ref *v1.ParamRef, namespace string) ([]runtime.Object, error) {
	if kind == nil || ref == nil {
		return []runtime.Object{nil}, nil
	}
	res, ok := s.res.kindKnown(kind.APIVersion, kind.Kind)
	if !ok {
		return nil, fmt.Errorf("paramKind kind `%v` not known", kind.String())
	}
	paramsNamespace := ""
	if res.namespaced {
		paramsNamespace = namespace
		if ref.Namespace != "" {
			paramsNamespace = ref.Namespace
		} else if paramsNamespace == "" {
			return nil, fmt.Errorf("cannot use namespaced paramRef in policy binding that matches cluster-scoped resources")
		}
	} else if ref.Namespace != "" {
		return nil, fmt.Errorf("paramRef.namespace must not be provided for a cluster-scoped `paramKind`")
	}
	candidates := s.params[paramKey(kind.APIVersion, kind.Kind)]
	var out []runtime.Object
	switch {
	case ref.Name != "":
		if ref.Selector != nil {
			return nil, fmt.Errorf("paramRef.name and paramRef.selector are mutually exclusive")
		}
		for _, o := range candidates {
			if o.Name == ref.Name && s.namespaceOf(o, res.namespaced) == paramsNamespace {
				out = append(out, &unstructured.Unstructured{Object: o.Content})
			}
		}
	case ref.Selector != nil:
		sel, err := metav1.LabelSelectorAsSelector(ref.Selector)
		if err != nil {
			return nil, err
		}
		for _, o := range candidates {
			if s.namespaceOf(o, res.namespaced) == paramsNamespace && sel.Matches(labels.Set(o.Labels())) {
				out = append(out, &unstructured.Unstructured{Object: o.Content})
			}
		}
	default:
		return nil, fmt.Errorf("one of name or selector must be provided")
	}
	if len(out) == 0 && ref.ParameterNotFoundAction != nil && *ref.ParameterNotFoundAction == v1.DenyAction {
		return nil, errors.New("no params found for policy binding with `Deny` parameterNotFoundAction")
	}
	return out, nil
}

// namespaceOf is the namespace o is created in: its own, else the
// --namespace lint was given.
func (s *Set) namespaceOf(o *manifest.Object, namespaced bool) string {
	if !namespaced {
		return ""
	}
	if o.Namespace != "" {
		return o.Namespace
	}
	return s.opts.Namespace
}
