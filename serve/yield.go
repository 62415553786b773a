package serve

import (
	"context"
	"strconv"
	"sync"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/run"
)

// ReasonYieldSuggested: a field another controller sets keeps being
// taken back; the Event says which yield: rule would leave it to it.
const ReasonYieldSuggested = "YieldSuggested"

// YieldRuns is how many runs in a row must take back a field the same
// other manager set before serve suggests a yield: rule.
const YieldRuns = 3

// YieldHint is a field serve took back YieldRuns runs in a row, set
// each time by Manager, and the rule that would leave it to it.
type YieldHint struct {
	Object  string // "deployment.apps/web" (plan.Ref.String)
	Field   string // as plan.Drift names it: spec.replicas
	Manager string
	// Rule is the yield: rule to add to kubeplan.yaml, one line of YAML.
	Rule string
	// Note says it all for people (render.YieldNote): the Event's note,
	// the log line, the notification.
	Note string
}

// yieldKey is one field of one object of a project, set by one manager.
type yieldKey struct{ project, object, field, manager string }

// yieldWatch counts, per project, object, field and manager, the runs in
// a row that took the field back. A run that does not take it back (the
// field was left alone, yielded, or set by another manager) starts the
// count again. Each field is suggested once for the life of the process.
type yieldWatch struct {
	mu    sync.Mutex
	runs  map[yieldKey]int
	hints map[yieldKey]bool
}

func newYieldWatch() *yieldWatch {
	return &yieldWatch{runs: map[yieldKey]int{}, hints: map[yieldKey]bool{}}
}

// observe counts pr's repairs and returns the fields to suggest now.
func (w *yieldWatch) observe(pr run.ProjectReport) []YieldHint {
	seen := map[yieldKey]plan.Change{}
	for _, c := range repaired(pr) {
		for _, d := range c.Drift {
			if d.Manager != "" {
				seen[yieldKey{pr.Project.Name, c.Ref.String(), d.Field, d.Manager}] = c
			}
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for k := range w.runs {
		if _, ok := seen[k]; !ok && k.project == pr.Project.Name {
			delete(w.runs, k) // not taken back this run
		}
	}
	var out []YieldHint
	for k, c := range seen {
		w.runs[k]++
		if w.runs[k] >= YieldRuns && !w.hints[k] {
			w.hints[k] = true
			out = append(out, YieldHint{Object: k.object, Field: k.field, Manager: k.manager, Rule: yieldRule(c.Ref, k.field)})
		}
	}
	return out
}

// repaired are the changes of pr's plan its apply wrote.
func repaired(pr run.ProjectReport) []plan.Change {
	if pr.Plan == nil || pr.Result == nil || pr.Err != nil {
		return nil
	}
	wrote := map[plan.Ref]bool{}
	for _, o := range pr.Result.Objects {
		if o.Outcome == apply.Configured || o.Outcome == apply.Replaced {
			wrote[o.Ref] = true
		}
	}
	var out []plan.Change
	for _, c := range pr.Plan.Changes {
		if len(c.Drift) > 0 && wrote[c.Ref] {
			out = append(out, c)
		}
	}
	return out
}

// yieldRule is the kubeplan.yaml rule that yields field (as the API
// server names it) of objects of ref's kind.
func yieldRule(ref plan.Ref, field string) string {
	group := ""
	if ref.Group != "" {
		group = ", group: " + ref.Group
	}
	return "yield: [{kind: " + ref.Kind + group + ", paths: [" + strconv.Quote(yieldPathOf(field).String()) + "]}]"
}

// suggestYield records each hint of pr's run: a line on the log and a
// Warning Event on the project's parent (render.YieldNote words it).
func (s *server) suggestYield(ctx context.Context, c *kube.Client, pr run.ProjectReport, res *RunResult) {
	res.YieldHints = s.yields.observe(pr)
	if len(res.YieldHints) == 0 {
		return
	}
	parent, err := applyset.ParseParentFlag(res.ApplySet, res.Namespace)
	for i, h := range res.YieldHints {
		msg := render.YieldNote(h.Object, h.Field, h.Manager, YieldRuns, h.Rule)
		res.YieldHints[i].Note = msg
		s.logf("%s: %s", res.Project, msg)
		if err != nil || c == nil || res.ApplySet == "" {
			continue
		}
		if werr := s.ev.write(ctx, c, parent, ReasonYieldSuggested, "Warning", msg); werr != nil {
			s.logf("%s: %v", res.Project, werr)
		}
	}
}
