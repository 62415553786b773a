package main

import (
	"context"
	"io"
	"net/http"
	"os"
	"runtime/pprof"
	"sort"
	"strings"
	"sync"
	"time"

	"k8s.io/client-go/tools/clientcmd"

	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/render"

	"github.com/kubeplan/kubeplan/internal/benchkit"
)

// planConcurrency is kubeplan plan's default --concurrency.
const planConcurrency = 16

// anatomy is where the time of one in-process `kubeplan plan` went: the
// steps the CLI takes, and plan.Make's requests by class.
type anatomy struct {
	LoadLint, Make, Render time.Duration
	CPU, ServerCPU         time.Duration
	Classes                []requestClass
	Summary                string
}

// requestClass is one kind of request plan.Make sent.
type requestClass struct {
	Name       string
	Count      int
	First      time.Duration // start of the first, from the start of plan.Make
	Last       time.Duration // end of the last
	SumLatency time.Duration
}

// recorder times every request by class.
type recorder struct {
	mu      sync.Mutex
	t0      time.Time
	class   map[string]*requestClass
	classOf func(*http.Request) string // classify when nil
}

func (r *recorder) wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		start := time.Now()
		resp, err := rt.RoundTrip(req)
		end := time.Now()
		classOf := r.classOf
		if classOf == nil {
			classOf = classify
		}
		name := classOf(req)
		r.mu.Lock()
		c := r.class[name]
		if c == nil {
			c = &requestClass{Name: name, First: start.Sub(r.t0)}
			r.class[name] = c
		}
		c.Count++
		c.Last = max(c.Last, end.Sub(r.t0))
		c.SumLatency += end.Sub(start)
		r.mu.Unlock()
		return resp, err
	})
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// classify names a request: access review, dry-run, list, get, discovery.
func classify(req *http.Request) string {
	p := req.URL.Path
	switch {
	case strings.HasSuffix(p, "accessreviews"):
		return "access reviews (SelfSubjectAccessReview)"
	case req.URL.Query().Get("dryRun") != "":
		return req.Method + " dry-run (server-side apply)"
	case req.Method != http.MethodGet:
		return req.Method
	}
	_, rest, namespaced := strings.Cut(p, "/namespaces/")
	if !namespaced {
		return "GET discovery"
	}
	parts := strings.Split(strings.Trim(rest, "/"), "/") // NS, resource[, name]
	switch {
	case len(parts) == 2 && req.URL.Query().Get("labelSelector") != "":
		return "LIST ApplySet members (label selector)"
	case len(parts) == 2:
		return "LIST live objects"
	default:
		return "GET one object"
	}
}

// planInProcess does what `kubeplan plan -n NS --applyset ... --adopt -o
// json CORPUS` does, in this process, recording its requests.
func planInProcess(kubeconfig, ns, corpus string, serverPID int) (*anatomy, error) {
	a := &anatomy{}
	cpu0, srv0 := benchkit.SelfCPU(), benchkit.ProcessCPU(serverPID)
	start := time.Now()
	res, err := loadAndLint(corpus, ns)
	if err != nil {
		return nil, err
	}
	a.LoadLint = time.Since(start)

	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return nil, err
	}
	rec := &recorder{class: map[string]*requestClass{}}
	cfg.WrapTransport = rec.wrap
	client, err := kube.NewForConfig(cfg, ns)
	if err != nil {
		return nil, err
	}
	as, err := applyset.ParseParentFlag(applySetFlag, ns)
	if err != nil {
		return nil, err
	}
	opts := plan.Options{Namespace: ns, FieldManager: fieldManager, Adopt: true, Concurrency: planConcurrency, ApplySet: &as}
	t := time.Now()
	rec.t0 = t
	pl, err := plan.Make(context.Background(), client, res, opts)
	if err != nil {
		return nil, err
	}
	a.Make = time.Since(t)
	t = time.Now()
	if err := render.Plan(io.Discard, "json", pl, render.PlanOptions{}); err != nil {
		return nil, err
	}
	a.Render = time.Since(t)
	a.CPU, a.ServerCPU = benchkit.SelfCPU()-cpu0, benchkit.ProcessCPU(serverPID)-srv0
	a.Summary = pl.Summary().String()
	for _, c := range rec.class {
		a.Classes = append(a.Classes, *c)
	}
	sort.Slice(a.Classes, func(i, j int) bool { return a.Classes[i].First < a.Classes[j].First })
	return a, nil
}

// profilePlan runs planInProcess n times under the CPU profiler.
func profilePlan(path, kubeconfig, ns, corpus string, serverPID, n int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := pprof.StartCPUProfile(f); err != nil {
		return err
	}
	defer pprof.StopCPUProfile()
	for i := 0; i < n; i++ {
		if _, err := planInProcess(kubeconfig, ns, corpus, serverPID); err != nil {
			return err
		}
	}
	return nil
}
