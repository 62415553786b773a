package library

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/tools/clientcmd"
)

// kube is an admin client that records the warnings of its requests; a
// test's requests go one at a time.
type kube struct {
	dc       dynamic.Interface
	mapper   meta.RESTMapper
	mu       sync.Mutex
	warnings []string
}

func connect(t *testing.T, kubeconfig string) *kube {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	k := &kube{}
	cfg.Timeout = 30 * time.Second
	cfg.QPS = -1
	cfg.WarningHandler = k
	if k.dc, err = dynamic.NewForConfig(cfg); err != nil {
		t.Fatal(err)
	}
	disc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	k.mapper = restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(disc))
	return k
}

// HandleWarningHeader records a warning the server sent.
func (k *kube) HandleWarningHeader(_ int, _ string, text string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.warnings = append(k.warnings, text)
}

func (k *kube) takeWarnings() []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	w := k.warnings
	k.warnings = nil
	return w
}

// resource is the dynamic client for o's kind, in ns when it is namespaced.
func (k *kube) resource(t *testing.T, o *unstructured.Unstructured, ns string) (dynamic.ResourceInterface, *unstructured.Unstructured) {
	t.Helper()
	gvk := o.GroupVersionKind()
	m, err := k.mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	if err != nil {
		t.Fatalf("%s: %v", key(o), err)
	}
	o = o.DeepCopy()
	if m.Scope.Name() != meta.RESTScopeNameNamespace {
		return k.dc.Resource(m.Resource), o
	}
	o.SetNamespace(ns)
	return k.dc.Resource(m.Resource).Namespace(ns), o
}

// create creates o for real and deletes it when t ends.
func (k *kube) create(t *testing.T, o *unstructured.Unstructured, ns string) {
	t.Helper()
	ri, o := k.resource(t, o, ns)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := ri.Create(ctx, o, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create %s: %v", key(o), err)
	}
	t.Cleanup(func() { _ = ri.Delete(context.Background(), o.GetName(), metav1.DeleteOptions{}) })
}

// verdict is what the server did with a dry-run create.
type verdict struct {
	denials map[string]denial // by policy name
	matched map[string]bool   // probe policies that warned
	err     error             // a refusal that is not a policy's denial
}

type denial struct{ binding, message string }

var (
	deniedRe = regexp.MustCompile(`ValidatingAdmissionPolicy '([^']+)' with binding '([^']+)' denied request: (.*)$`)
	warnedRe = regexp.MustCompile(`^Validation failed for ValidatingAdmissionPolicy '([^']+)' with binding '[^']+': `)
)

// dryRun sends o as a server-side dry-run create into ns.
func (k *kube) dryRun(t *testing.T, o *unstructured.Unstructured, ns string) verdict {
	t.Helper()
	ri, o := k.resource(t, o, ns)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	k.takeWarnings()
	_, err := ri.Create(ctx, o, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
	v := verdict{denials: map[string]denial{}, matched: map[string]bool{}}
	for _, w := range k.takeWarnings() {
		if m := warnedRe.FindStringSubmatch(w); m != nil {
			v.matched[m[1]] = true
		}
	}
	if err == nil {
		return v
	}
	if m := deniedRe.FindStringSubmatch(err.Error()); m != nil && apierrors.IsForbidden(err) || m != nil && apierrors.IsInvalid(err) {
		v.denials[m[1]] = denial{binding: m[2], message: m[3]}
		return v
	}
	v.err = err
	return v
}

func describe(v verdict) string {
	var parts []string
	for p, d := range v.denials {
		parts = append(parts, fmt.Sprintf("denied by %s: %s", p, d.message))
	}
	for p := range v.matched {
		parts = append(parts, "warned by "+p)
	}
	if v.err != nil {
		parts = append(parts, v.err.Error())
	}
	if len(parts) == 0 {
		return "admitted"
	}
	return strings.Join(parts, "; ")
}
