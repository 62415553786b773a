package testkube

import (
	"context"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"
)

// requestTimeout bounds each request the helpers make.
const requestTimeout = 30 * time.Second

var (
	namespacesGVR      = schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
	serviceAccountsGVR = schema.GroupVersionResource{Version: "v1", Resource: "serviceaccounts"}
	roleBindingsGVR    = schema.GroupVersionResource{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "rolebindings"}
	accessReviewsGVR   = schema.GroupVersionResource{Group: "authorization.k8s.io", Version: "v1", Resource: "selfsubjectaccessreviews"}
)

// newClient is a dynamic client with the identity of the kubeconfig at path.
func newClient(path string) (dynamic.Interface, error) {
	cfg, err := clientcmd.BuildConfigFromFlags("", path)
	if err != nil {
		return nil, err
	}
	cfg.Timeout = requestTimeout
	cfg.QPS = -1 // no client-side throttling: tests poll and run in parallel
	return dynamic.NewForConfig(cfg)
}

// admin returns a client with the admin identity, made on first use.
func (c *Cluster) admin() (dynamic.Interface, error) {
	select {
	case <-c.exited:
		return nil, errStopped
	default:
	}
	c.clientMu.Lock()
	defer c.clientMu.Unlock()
	if c.client == nil {
		dc, err := newClient(c.kubeconfig)
		if err != nil {
			return nil, err
		}
		c.client = dc
	}
	return c.client, nil
}

// canCreateDeployments asks the API server, as the identity of kubeconfig,
// whether it may create Deployments in ns (what `kubectl auth can-i create
// deployments -n ns` asks).
func canCreateDeployments(kubeconfig, ns string) (bool, error) {
	dc, err := newClient(kubeconfig)
	if err != nil {
		return false, err
	}
	review := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "authorization.k8s.io/v1",
		"kind":       "SelfSubjectAccessReview",
		"spec": map[string]any{"resourceAttributes": map[string]any{
			"verb": "create", "group": "apps", "resource": "deployments", "namespace": ns,
		}},
	}}
	res, err := dc.Resource(accessReviewsGVR).Create(context.Background(), review, metav1.CreateOptions{})
	if err != nil {
		return false, err
	}
	allowed, _, _ := unstructured.NestedBool(res.Object, "status", "allowed")
	return allowed, nil
}
