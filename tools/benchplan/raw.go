package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// rawInFlight is how many dry-runs the raw loop keeps in flight (the figure).
const rawInFlight = 32

// The resources of the corpus, so the raw loops need no discovery.
var corpusResources = map[string]schema.GroupVersionResource{
	"ConfigMap":  {Version: "v1", Resource: "configmaps"},
	"Service":    {Version: "v1", Resource: "services"},
	"Deployment": {Group: "apps", Version: "v1", Resource: "deployments"},
}

// rawObject is one corpus object, encoded once, ready to be sent.
type rawObject struct {
	gvr  schema.GroupVersionResource
	name string
	data []byte
}

// rawClient is the plain client-go baseline: what any program that
// dry-runs or lists the corpus must at least spend.
type rawClient struct {
	cfg     *rest.Config
	ns      string
	objects []rawObject
}

// newRawClient connects with the kubeconfig (no client-side rate limit, as
// kubeplan) and loads the corpus, each object labelled as a member of the
// ApplySet id as kubeplan sends it.
func newRawClient(kubeconfig, ns, corpus, applySetID string) (*rawClient, error) {
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return nil, err
	}
	cfg.QPS, cfg.Burst = -1, 0
	// A Proxy function keeps client-go from sharing one transport (and
	// connection) between clients: each run connects anew, as a process would.
	cfg.Proxy = func(*http.Request) (*url.URL, error) { return nil, nil }
	objs, err := loadCorpus(corpus)
	if err != nil {
		return nil, err
	}
	r := &rawClient{cfg: cfg, ns: ns}
	for _, u := range objs {
		gvr, ok := corpusResources[u.GetKind()]
		if !ok {
			return nil, fmt.Errorf("%s/%s: kind not in the corpus", u.GetKind(), u.GetName())
		}
		l := u.GetLabels()
		l["applyset.kubernetes.io/part-of"] = applySetID
		u.SetLabels(l)
		u.SetNamespace(ns)
		data, err := json.Marshal(u.Object)
		if err != nil {
			return nil, err
		}
		r.objects = append(r.objects, rawObject{gvr: gvr, name: u.GetName(), data: data})
	}
	return r, nil
}

// connect makes a client with a connection of its own; done closes it.
func (r *rawClient) connect() (dynamic.Interface, func(), error) {
	hc, err := rest.HTTPClientFor(r.cfg)
	if err != nil {
		return nil, nil, err
	}
	dyn, err := dynamic.NewForConfigAndClient(r.cfg, hc)
	if err != nil {
		return nil, nil, err
	}
	return dyn, hc.CloseIdleConnections, nil
}

// loadCorpus decodes every object of the corpus's files.
func loadCorpus(dir string) ([]*unstructured.Unstructured, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var out []*unstructured.Unstructured
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			return nil, err
		}
		dec := utilyaml.NewYAMLOrJSONDecoder(fh, 4096)
		for {
			var m map[string]any
			if err := dec.Decode(&m); errors.Is(err, io.EOF) {
				break
			} else if err != nil {
				fh.Close()
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			if m != nil {
				out = append(out, &unstructured.Unstructured{Object: m})
			}
		}
		fh.Close()
	}
	return out, nil
}

// dryRun sends every object as a server-side apply with dryRun=All and
// force, inFlight at a time, and returns how many the server refused. Each
// run makes a new client (and connection), as a new process would.
func (r *rawClient) dryRun(ctx context.Context, inFlight int) (int, error) {
	dyn, done, err := r.connect()
	if err != nil {
		return 0, err
	}
	defer done()
	var next atomic.Int64
	var failed atomic.Int64
	var firstErr error
	var once sync.Once
	var wg sync.WaitGroup
	force := true
	for w := 0; w < inFlight; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(r.objects) {
					return
				}
				o := r.objects[i]
				_, err := dyn.Resource(o.gvr).Namespace(r.ns).Patch(ctx, o.name, types.ApplyPatchType, o.data, metav1.PatchOptions{
					FieldManager: fieldManager, DryRun: []string{metav1.DryRunAll}, Force: &force,
				})
				if err != nil {
					failed.Add(1)
					once.Do(func() { firstErr = fmt.Errorf("dry-run of %s %s: %w", o.gvr.Resource, o.name, err) })
				}
			}
		}()
	}
	wg.Wait()
	return int(failed.Load()), firstErr
}

// list lists the corpus's three resources in the namespace, concurrently,
// and returns how many objects came back.
func (r *rawClient) list(ctx context.Context) (int, error) {
	dyn, done, err := r.connect()
	if err != nil {
		return 0, err
	}
	defer done()
	gvrs := []schema.GroupVersionResource{corpusResources["ConfigMap"], corpusResources["Deployment"], corpusResources["Service"]}
	counts := make([]int, len(gvrs))
	errs := make([]error, len(gvrs))
	var wg sync.WaitGroup
	for i, gvr := range gvrs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l, err := dyn.Resource(gvr).Namespace(r.ns).List(ctx, metav1.ListOptions{})
			if err != nil {
				errs[i] = err
				return
			}
			counts[i] = len(l.Items)
		}()
	}
	wg.Wait()
	n := 0
	for i := range gvrs {
		if errs[i] != nil {
			return 0, errs[i]
		}
		n += counts[i]
	}
	return n, nil
}
