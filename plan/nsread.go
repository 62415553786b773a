package plan

import (
	"context"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kubeplan/kubeplan/internal/kube"
)

// Namespaces reads live Namespaces once each for one project's plan:
// the pod-security lint rule reads their levels before the plan is made
// (Labels), and the plan reads the same answers to find the namespaces
// that do not exist and those that enforce Pod Security, without asking
// again. Use one per project and run: answers are never refreshed.
type Namespaces struct {
	c  *kube.Client
	ra *ReadAhead
	mu sync.Mutex
	m  map[string]func() (*unstructured.Unstructured, error)
}

// NewNamespaces returns the reader of c's Namespaces, which takes them
// from ra when it read them (nil: none).
func NewNamespaces(c *kube.Client, ra *ReadAhead) *Namespaces {
	return &Namespaces{c: c, ra: ra, m: map[string]func() (*unstructured.Unstructured, error){}}
}

// Get is the live Namespace name, read once; the error is the API
// server's (NotFound, Forbidden, ...).
func (n *Namespaces) Get(ctx context.Context, name string) (*unstructured.Unstructured, error) {
	n.mu.Lock()
	get := n.m[name]
	if get == nil {
		get = sync.OnceValues(func() (*unstructured.Unstructured, error) {
			if ns, ok := n.ra.namespace(name); ok {
				if ns == nil {
					return nil, notFound(name)
				}
				return ns, nil
			}
			return n.c.Dynamic.Resource(namespaceGVR).Get(ctx, name, metav1.GetOptions{})
		})
		n.m[name] = get
	}
	n.mu.Unlock()
	return get()
}

// Labels are the live Namespace's labels; ok is false when it does not
// exist or cannot be read (an identity without get on namespaces: the
// rule judges with the defaults then, and the dry-run's warnings still
// tell).
func (n *Namespaces) Labels(ctx context.Context, name string) (map[string]string, bool) {
	ns, err := n.Get(ctx, name)
	if err != nil {
		return nil, false
	}
	return ns.GetLabels(), true
}
