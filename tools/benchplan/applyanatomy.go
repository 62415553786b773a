package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"runtime/pprof"
	"sort"
	"strings"
	"time"

	"k8s.io/client-go/tools/clientcmd"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/plan"

	"github.com/kubeplan/kubeplan/internal/benchkit"
)

// applyAnatomy is where the time of one in-process `kubeplan apply
// --wait=false` went: its steps, and its requests by class.
type applyAnatomy struct {
	Scenario       string
	Steps          []applyStep
	Classes        []requestClass
	CPU, ServerCPU time.Duration
	Wall           time.Duration
	Writes         int            // kube.Client's Requests.Writes()
	ByMethod       map[string]int // kube.Client's Requests.Count, by method
	Summary        string         // apply's own counts
}

// applyStep is one step of the CLI's applyOnce, from the start of the run.
type applyStep struct {
	Name     string
	From, To time.Duration
}

// The steps of cmd/kubeplan applyOnce, as applyInProcess times them.
const (
	stepLint    = "load + lint the files"
	stepPlan    = "plan.Make (reviews, reads, dry-runs)"
	stepLock    = "acquire the lock (Lease)"
	stepFresh   = "plan.CheckFresh under the lock"
	stepExecute = "apply.Reconcile (lock, plan.CheckFresh, parent, writes, prunes, record, release)"
	stepRelease = "release the lock"
)

// applyInProcess does what `kubeplan apply -n NS --applyset ... --wait=false
// CORPUS` does (cmd/kubeplan applyOnce: load + lint, plan; when anything is
// to be written, the lock, CheckFresh, Execute, release), in this process,
// recording its requests; with profile, under the CPU profiler.
func applyInProcess(kubeconfig, ns, corpus, scenario, profile string, serverPID int) (*applyAnatomy, error) {
	if profile != "" {
		f, err := os.Create(profile)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return nil, err
		}
		defer pprof.StopCPUProfile()
	}
	a := &applyAnatomy{Scenario: scenario}
	ctx := context.Background()
	cpu0, srv0 := benchkit.SelfCPU(), benchkit.ProcessCPU(serverPID)
	t0 := time.Now()
	mark := func(name string, from time.Time) {
		a.Steps = append(a.Steps, applyStep{Name: name, From: from.Sub(t0), To: time.Since(t0)})
	}

	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return nil, err
	}
	as, err := applyset.ParseParentFlag(applySetFlag, ns)
	if err != nil {
		return nil, err
	}
	rec := &recorder{class: map[string]*requestClass{}, t0: t0, classOf: classifyApply(as)}
	cfg.WrapTransport = rec.wrap
	client, err := kube.NewForConfig(cfg, ns)
	if err != nil {
		return nil, err
	}

	t := time.Now()
	res, err := loadAndLint(corpus, ns)
	if err != nil {
		return nil, err
	}
	mark(stepLint, t)

	t = time.Now()
	pl, err := plan.Make(ctx, client, res, plan.Options{Namespace: ns, FieldManager: fieldManager, ApplySet: &as, Concurrency: planConcurrency})
	if err != nil {
		return nil, err
	}
	mark(stepPlan, t)

	// As kubeplan apply does: apply.Reconcile writes nothing (no lock) when
	// the plan is in sync, else takes the lock, re-checks the plan
	// (plan.CheckFresh), executes it and releases the lock.
	t = time.Now()
	out, err := apply.Reconcile(ctx, client, pl, apply.Options{FieldManager: fieldManager, ApplySet: &as, Version: "dev",
		Concurrency: planConcurrency, Timeout: 5 * time.Minute})
	if err != nil {
		return nil, err
	}
	if !out.InSync {
		mark(stepExecute, t)
	}

	a.Wall = time.Since(t0)
	a.CPU, a.ServerCPU = benchkit.SelfCPU()-cpu0, benchkit.ProcessCPU(serverPID)-srv0
	a.Writes = client.Requests.Writes()
	a.ByMethod = map[string]int{}
	for _, m := range []string{"GET", "POST", "PUT", "PATCH", "PATCH (dry-run)", "POST (review)", "DELETE"} {
		if n := client.Requests.Count(m); n > 0 {
			a.ByMethod[m] = n
		}
	}
	counts := map[apply.Outcome]int{}
	for _, o := range out.Objects {
		counts[o.Outcome]++
	}
	a.Summary = fmt.Sprintf("%d created, %d configured, %d pruned, %d unchanged", counts[apply.Created], counts[apply.Configured], counts[apply.Pruned], counts[apply.Unchanged])
	for _, c := range rec.class {
		a.Classes = append(a.Classes, *c)
	}
	sort.Slice(a.Classes, func(i, j int) bool { return a.Classes[i].First < a.Classes[j].First })
	return a, nil
}

// classifyApply names an apply's request: the lock, the ApplySet parent,
// dry-runs, writes, prunes, reads.
func classifyApply(as applyset.Parent) func(*http.Request) string {
	parentPath := "/namespaces/" + as.Namespace + "/" + as.Resource() + "/" + as.Name
	return func(req *http.Request) string {
		p := req.URL.Path
		switch {
		case strings.HasSuffix(p, "accessreviews"):
			return "access reviews (SelfSubjectAccessReview)"
		case strings.Contains(p, "/leases"):
			return "lock: " + req.Method + " Lease"
		case req.URL.Query().Get("dryRun") != "":
			return req.Method + " dry-run (server-side apply)"
		case strings.HasSuffix(p, parentPath):
			return "ApplySet parent: " + req.Method
		case req.Method == http.MethodPatch:
			return "PATCH write (server-side apply)"
		case req.Method == http.MethodDelete:
			return "DELETE (prune)"
		}
		return classify(req)
	}
}

// profilePath is FILE-SCENARIO.EXT for -cpuprofile FILE.EXT.
func profilePath(base, scenario string) string {
	if base == "" {
		return ""
	}
	ext := ""
	if i := strings.LastIndexByte(base, '.'); i > strings.LastIndexByte(base, '/') {
		base, ext = base[:i], base[i:]
	}
	return base + "-" + scenario + ext
}
