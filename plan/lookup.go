package plan

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/kubeplan/kubeplan/internal/kube"
)

// lookupItems is MaxLookupItems (tests lower it).
var lookupItems int64 = MaxLookupItems

// Bounds of what a chart's lookup may read in one run.
const (
	// MaxLookupItems is the most objects one list lookup (name "")
	// returns: a bigger list is an error, never a silent truncation.
	MaxLookupItems = 500
	// MaxLookups is the most distinct lookups (apiVersion, kind,
	// namespace, name) one run answers.
	MaxLookups = 1000
)

// Lookup is a chart's lookup function over the run's own client
// (helm.Lookup): what helm install and upgrade read, and nothing
// more. It only GETs and LISTs (never watches), with the run's identity,
// so it reads only what that identity may read; a lookup the identity is
// forbidden is an error naming what to grant, not an empty answer (which
// would make a chart generate a new password, as if its Secret did not
// exist). A missing object, or a kind's empty list, is an empty map, as
// in helm.
//
// Answers are kept for the run: the same lookup in the two or three
// renders the manifest layer makes, or in several projects of one
// cluster, is one request. Each call gets its own copy (templates may
// change what they are given).
type Lookup struct {
	c        *kube.Client
	mu       sync.Mutex
	answers  map[lookupKey]*lookupAnswer
	requests atomic.Int64
}

type lookupKey struct{ apiVersion, kind, namespace, name string }

type lookupAnswer struct {
	once sync.Once
	obj  map[string]any
	err  error
}

// NewLookup returns the lookup of one run over c. Use a new one per run:
// answers are never refreshed.
func NewLookup(c *kube.Client) *Lookup {
	return &Lookup{c: c, answers: map[lookupKey]*lookupAnswer{}}
}

// Requests is how many requests the lookup made (tests prove the cache).
func (l *Lookup) Requests() int { return int(l.requests.Load()) }

// Lookup returns the object named (name set), the list of the kind
// ({"items": [...]} with the list's apiVersion, kind and metadata, name
// empty; across namespaces when namespace is empty), or an empty map when
// there is none, as helm's lookup does.
func (l *Lookup) Lookup(ctx context.Context, apiVersion, kind, namespace, name string) (map[string]any, error) {
	key := lookupKey{apiVersion, kind, namespace, name}
	l.mu.Lock()
	a := l.answers[key]
	if a == nil {
		if len(l.answers) >= MaxLookups {
			l.mu.Unlock()
			return map[string]any{}, fmt.Errorf("lookup %q %q %q %q: the chart made more than %d different lookups in one run", apiVersion, kind, namespace, name, MaxLookups)
		}
		a = &lookupAnswer{}
		l.answers[key] = a
	}
	l.mu.Unlock()
	a.once.Do(func() { a.obj, a.err = l.read(ctx, key) })
	if a.err != nil {
		return map[string]any{}, a.err
	}
	return runtime.DeepCopyJSON(a.obj), nil
}

// read asks the cluster once.
func (l *Lookup) read(ctx context.Context, k lookupKey) (map[string]any, error) {
	what := fmt.Sprintf("lookup %q %q %q %q", k.apiVersion, k.kind, k.namespace, k.name)
	gv, err := schema.ParseGroupVersion(k.apiVersion)
	if err != nil || k.kind == "" {
		return nil, fmt.Errorf("%s: not an apiVersion and kind", what)
	}
	m, err := l.c.Mapper.RESTMapping(schema.GroupKind{Group: gv.Group, Kind: k.kind}, gv.Version)
	if err != nil {
		if meta.IsNoMatchError(err) {
			return nil, fmt.Errorf("%s: the cluster does not serve %s %s", what, k.apiVersion, k.kind)
		}
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	var ri dynamic.ResourceInterface = l.c.Dynamic.Resource(m.Resource)
	if m.Scope.Name() == meta.RESTScopeNameNamespace && k.namespace != "" {
		ri = l.c.Dynamic.Resource(m.Resource).Namespace(k.namespace)
	}
	l.requests.Add(1)
	if k.name != "" {
		obj, err := ri.Get(ctx, k.name, metav1.GetOptions{})
		if err != nil {
			return absent(what, m.Resource.Resource, "get", k.namespace, err)
		}
		return obj.UnstructuredContent(), nil
	}
	list, err := ri.List(ctx, metav1.ListOptions{Limit: lookupItems})
	if err != nil {
		return absent(what, m.Resource.Resource, "list", k.namespace, err)
	}
	if list.GetContinue() != "" || int64(len(list.Items)) > lookupItems {
		return nil, fmt.Errorf("%s: more than %d objects; kubeplan's lookup lists at most %d: name the object, or narrow the namespace", what, lookupItems, lookupItems)
	}
	return list.UnstructuredContent(), nil
}

// absent is helm's answer to a failed read: an empty map when the object
// (or the kind) is not found, else the error, with what to grant when the
// identity may not read it.
func absent(what, resource, verb, namespace string, err error) (map[string]any, error) {
	switch {
	case apierrors.IsNotFound(err):
		return map[string]any{}, nil
	case apierrors.IsForbidden(err):
		where := "in namespace " + namespace
		if namespace == "" {
			where = "cluster-wide"
		}
		return nil, &LookupForbiddenError{What: what, Verb: verb, Resource: resource, Where: where, Err: err}
	}
	return nil, fmt.Errorf("%s: %w", what, err)
}

// LookupForbiddenError is a chart's lookup the run's identity may not
// make. It is an error (as in helm), not an empty answer: a chart would
// take an unreadable Secret for a missing one and generate a new password.
type LookupForbiddenError struct {
	What, Verb, Resource, Where string
	Err                         error
}

func (e *LookupForbiddenError) Error() string {
	return fmt.Sprintf("%s: the identity may not %s %s %s (grant it, or remove the lookup from the chart; kubeplan does not take a forbidden lookup for a missing object)", e.What, e.Verb, e.Resource, e.Where)
}

func (e *LookupForbiddenError) Unwrap() error { return e.Err }

// IsLookupForbidden reports whether err is (or wraps) a forbidden lookup.
func IsLookupForbidden(err error) bool {
	var fe *LookupForbiddenError
	return errors.As(err, &fe)
}
