package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeplan/kubeplan/internal/kube"
)

// The checks read the cluster as the admin, with the API, not with the
// tools under test.

var (
	deployments = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	services    = schema.GroupVersionResource{Version: "v1", Resource: "services"}
	configmaps  = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	nodes       = schema.GroupVersionResource{Version: "v1", Resource: "nodes"}
	sas         = schema.GroupVersionResource{Version: "v1", Resource: "serviceaccounts"}
	ssars       = schema.GroupVersionResource{Group: "authorization.k8s.io", Version: "v1", Resource: "selfsubjectaccessreviews"}
)

// all is a check made of several: each must hold.
func all(fns ...func(context.Context, *session) error) func(context.Context, *session) error {
	return func(ctx context.Context, s *session) error {
		for _, fn := range fns {
			if err := fn(ctx, s); err != nil {
				return err
			}
		}
		return nil
	}
}

// get returns the object, or nil when it does not exist.
func (s *session) get(ctx context.Context, gvr schema.GroupVersionResource, ns, name string) (*unstructured.Unstructured, error) {
	if s.admin == nil {
		return nil, errors.New("no cluster")
	}
	o, err := s.admin.Dynamic.Resource(gvr).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s %s/%s: %w", gvr.Resource, ns, name, err)
	}
	return o, nil
}

// mustGet is get for an object that must exist.
func (s *session) mustGet(ctx context.Context, gvr schema.GroupVersionResource, ns, name string) (*unstructured.Unstructured, error) {
	o, err := s.get(ctx, gvr, ns, name)
	if err == nil && o == nil {
		err = fmt.Errorf("%s %s/%s does not exist", gvr.Resource, ns, name)
	}
	return o, err
}

// eventually retries fn until it holds or timeout passes (for what the
// cluster does by itself: controllers, the authorizer's cache).
func eventually(ctx context.Context, timeout time.Duration, fn func() error) error {
	deadline := time.Now().Add(timeout)
	for {
		err := fn()
		if err == nil || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// nodeReady: the simulated node is registered and Ready.
func nodeReady(ctx context.Context, s *session) error {
	return eventually(ctx, 30*time.Second, func() error {
		list, err := s.admin.Dynamic.Resource(nodes).List(ctx, metav1.ListOptions{})
		if err != nil {
			return err
		}
		for _, n := range list.Items {
			conds, _, _ := unstructured.NestedSlice(n.Object, "status", "conditions")
			for _, c := range conds {
				if m, ok := c.(map[string]any); ok && m["type"] == "Ready" && m["status"] == "True" {
					return nil
				}
			}
		}
		return fmt.Errorf("no Ready node among %d", len(list.Items))
	})
}

// deployment asserts that a Deployment wants replicas pods and has exactly
// that many, all ready and available: what apply --wait promises when it
// returns, so this is read at once, not waited for.
func deployment(ns, name string, replicas int64) func(context.Context, *session) error {
	return func(ctx context.Context, s *session) error {
		o, err := s.get(ctx, deployments, ns, name)
		if err != nil {
			return err
		}
		if o == nil {
			return fmt.Errorf("deployment %s/%s does not exist", ns, name)
		}
		spec, _, _ := unstructured.NestedInt64(o.Object, "spec", "replicas")
		pods, _, _ := unstructured.NestedInt64(o.Object, "status", "replicas")
		ready, _, _ := unstructured.NestedInt64(o.Object, "status", "readyReplicas")
		avail, _, _ := unstructured.NestedInt64(o.Object, "status", "availableReplicas")
		if spec != replicas || pods != replicas || ready != replicas || avail != replicas {
			return fmt.Errorf("deployment %s/%s: spec.replicas %d, %d pods, %d ready, %d available; want %d of each", ns, name, spec, pods, ready, avail, replicas)
		}
		return nil
	}
}

// specReplicas asserts only what the Deployment asks for (a hand edit's
// effect, before the controllers caught up).
func specReplicas(ns, name string, replicas int64) func(context.Context, *session) error {
	return func(ctx context.Context, s *session) error {
		o, err := s.get(ctx, deployments, ns, name)
		if err != nil {
			return err
		}
		if o == nil {
			return fmt.Errorf("deployment %s/%s does not exist", ns, name)
		}
		if got, _, _ := unstructured.NestedInt64(o.Object, "spec", "replicas"); got != replicas {
			return fmt.Errorf("deployment %s/%s: spec.replicas %d, want %d", ns, name, got, replicas)
		}
		return nil
	}
}

func present(gvr schema.GroupVersionResource, ns, name string) func(context.Context, *session) error {
	return func(ctx context.Context, s *session) error {
		_, err := s.mustGet(ctx, gvr, ns, name)
		return err
	}
}

func absent(gvr schema.GroupVersionResource, ns, name string) func(context.Context, *session) error {
	return func(ctx context.Context, s *session) error {
		o, err := s.get(ctx, gvr, ns, name)
		if err == nil && o != nil {
			if o.GetDeletionTimestamp() != nil {
				return nil // being deleted is gone as far as the story goes
			}
			err = fmt.Errorf("%s %s/%s exists", gvr.Resource, ns, name)
		}
		return err
	}
}

// configData asserts one key of a ConfigMap.
func configData(ns, name, key, value string) func(context.Context, *session) error {
	return func(ctx context.Context, s *session) error {
		o, err := s.get(ctx, configmaps, ns, name)
		if err != nil {
			return err
		}
		if o == nil {
			return fmt.Errorf("configmap %s/%s does not exist", ns, name)
		}
		if got, _, _ := unstructured.NestedString(o.Object, "data", key); got != value {
			return fmt.Errorf("configmap %s/%s: %s is %q, want %q", ns, name, key, got, value)
		}
		return nil
	}
}

// unlabelled asserts an object is no member of any ApplySet.
func unlabelled(gvr schema.GroupVersionResource, ns, name string) func(context.Context, *session) error {
	return func(ctx context.Context, s *session) error {
		o, err := s.mustGet(ctx, gvr, ns, name)
		if err != nil {
			return err
		}
		if v, ok := o.GetLabels()["applyset.kubernetes.io/part-of"]; ok {
			return fmt.Errorf("%s %s/%s was made a member of ApplySet %s", gvr.Resource, ns, name, v)
		}
		return nil
	}
}

// recorded asserts the ApplySet parent records HEAD of the current
// directory's repository as applied, with result ok.
func recorded(ns, parent string) func(context.Context, *session) error {
	return func(ctx context.Context, s *session) error {
		head, err := s.git("rev-parse", "HEAD")
		if err != nil {
			return err
		}
		o, err := s.get(ctx, configmaps, ns, parent)
		if err != nil {
			return err
		}
		if o == nil {
			return fmt.Errorf("the ApplySet parent configmap %s/%s does not exist", ns, parent)
		}
		a := o.GetAnnotations()
		if a["kubeplan.dev/revision"] != head || a["kubeplan.dev/result"] != "ok" {
			return fmt.Errorf("configmap %s/%s records revision %q with result %q, want %s with ok", ns, parent, a["kubeplan.dev/revision"], a["kubeplan.dev/result"], head)
		}
		return nil
	}
}

// failedRun asserts the ApplySet parent records a failed run whose error
// says msg, and still lists the member types it listed before (the set
// itself was not touched: only the record).
func failedRun(ns, parent, msg string) func(context.Context, *session) error {
	return func(ctx context.Context, s *session) error {
		o, err := s.mustGet(ctx, configmaps, ns, parent)
		if err != nil {
			return err
		}
		a := o.GetAnnotations()
		if a["kubeplan.dev/result"] != "failed" || !strings.Contains(a["kubeplan.dev/last-error"], msg) {
			return fmt.Errorf("configmap %s/%s records result %q, error %q; want failed with %q", ns, parent, a["kubeplan.dev/result"], a["kubeplan.dev/last-error"], msg)
		}
		if a["applyset.kubernetes.io/contains-group-kinds"] == "" {
			return fmt.Errorf("configmap %s/%s lost its member types", ns, parent)
		}
		return nil
	}
}

// pushed asserts the remote's branch is HEAD of the current directory.
func pushed(branch string) func(context.Context, *session) error {
	return func(_ context.Context, s *session) error {
		head, err := s.git("rev-parse", "HEAD")
		if err != nil {
			return err
		}
		remote, err := s.git("ls-remote", "origin", "refs/heads/"+branch)
		if err != nil {
			return err
		}
		if got, _, _ := strings.Cut(remote, "\t"); got != head {
			return fmt.Errorf("origin %s is %q, HEAD is %s", branch, got, head)
		}
		return nil
	}
}

// remember keeps an object's resourceVersion under key; unchanged asserts
// it is still the same: nothing wrote the object in between.
func remember(key string, gvr schema.GroupVersionResource, ns, name string) func(context.Context, *session) error {
	return func(ctx context.Context, s *session) error {
		o, err := s.mustGet(ctx, gvr, ns, name)
		if err != nil {
			return err
		}
		s.mem[key] = o.GetResourceVersion()
		return nil
	}
}

func unchanged(key string, gvr schema.GroupVersionResource, ns, name string) func(context.Context, *session) error {
	return func(ctx context.Context, s *session) error {
		o, err := s.mustGet(ctx, gvr, ns, name)
		if err != nil {
			return err
		}
		if want, got := s.mem[key], o.GetResourceVersion(); got != want {
			return fmt.Errorf("%s %s/%s was written (resourceVersion %s -> %s)", gvr.Resource, ns, name, want, got)
		}
		return nil
	}
}

// may asserts whether user may do verb on resource (group/resource) in ns,
// asking the API server as that user. The authorizer reads bindings from a
// cache, so a fresh binding is waited for.
func may(user string, allowed bool, verb, resource, ns string) func(context.Context, *session) error {
	return func(ctx context.Context, s *session) error {
		c, err := kube.NewFromKubeconfig(s.kubeconfig(user), ns)
		if err != nil {
			return err
		}
		group, res, ok := strings.Cut(resource, "/")
		if !ok {
			group, res = "", resource
		}
		review := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "authorization.k8s.io/v1", "kind": "SelfSubjectAccessReview",
			"spec": map[string]any{"resourceAttributes": map[string]any{"namespace": ns, "verb": verb, "group": group, "resource": res}},
		}}
		return eventually(ctx, 10*time.Second, func() error {
			out, err := c.Dynamic.Resource(ssars).Create(ctx, review, metav1.CreateOptions{})
			if err != nil {
				return err
			}
			if got, _, _ := unstructured.NestedBool(out.Object, "status", "allowed"); got != allowed {
				return fmt.Errorf("%s may %s %s in %s: %v, want %v", user, verb, resource, ns, got, allowed)
			}
			return nil
		})
	}
}

// serviceAccount waits for a namespace's default ServiceAccount: without it
// no pod can be created there.
func serviceAccount(ns string) func(context.Context, *session) error {
	return func(ctx context.Context, s *session) error {
		return eventually(ctx, 20*time.Second, func() error { return present(sas, ns, "default")(ctx, s) })
	}
}
