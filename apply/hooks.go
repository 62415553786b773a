package apply

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeplan/kubeplan/health"
	"github.com/kubeplan/kubeplan/internal/helmhook"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/plan"
)

// Helm hooks (helm.sh/hook, see docs/helm.md). A chart is applied as one
// ApplySet; its hooks are members like the other objects (labelled, pruned
// when they leave the chart). In the phase of the run (helmhook.Phase:
// install when the parent does not exist yet, else upgrade):
//
//   - pre-install/pre-upgrade hooks are applied after the Namespaces and
//     CRDs and before everything else, one at a time by weight (then kind
//     and name), each waited for (a Job until Complete, others Current);
//   - post-install/post-upgrade hooks are applied the same way after the
//     other objects are written, pruned and (with Options.Wait) healthy;
//   - a hook is applied when the plan changes it, as any object: an
//     unchanged hook is not run again; a hook-succeeded hook, deleted
//     after it ran, is recorded on the parent (helmhook.RanAnnotation)
//     so that the next plan does not create it again while it is the same;
//   - before-hook-creation (Helm's default) deletes the live hook before
//     it is created again (the plan shows a replace), hook-succeeded and
//     hook-failed delete it after it succeeded or failed (best effort:
//     a failed delete is not an error);
//   - hooks of other events (pre-delete, post-delete, rollback, test) are
//     never applied: the plan keeps them as skipped (plan.Change.Hook).

// defaultHookTimeout bounds the wait for one hook when Options.Timeout is
// not set (Helm's default --timeout).
const defaultHookTimeout = 5 * time.Minute

// splitHooks separates the changes of one run into the hooks to run before
// the others (pre), the others (main, with every unchanged or skipped
// hook) and the hooks to run after them (post), the hooks in running order.
func splitHooks(changes []plan.Change, phase string) (pre, main, post []plan.Change) {
	for _, ch := range changes {
		h := helmhook.Of(ch.Object)
		switch {
		case !h.IsHook() || ch.Action == plan.Unchanged:
			main = append(main, ch)
		case h.Pre(phase) || h.Post(phase):
			// A hook of both (the ServiceAccount a pre and a post hook Job
			// run as) runs in both, as in Helm: hook-succeeded may have
			// deleted it after the first.
			if h.Pre(phase) {
				pre = append(pre, ch)
			}
			if h.Post(phase) {
				post = append(post, ch)
			}
		default:
			main = append(main, ch) // not planned by markHooks: written as any object
		}
	}
	byWeight := func(a, b plan.Change) int {
		return cmp.Or(cmp.Compare(helmhook.Of(a.Object).Weight, helmhook.Of(b.Object).Weight),
			cmp.Compare(hookKindRank(a.Ref.Kind), hookKindRank(b.Ref.Kind)),
			cmp.Compare(a.Ref.Kind, b.Ref.Kind), cmp.Compare(a.Ref.Name, b.Ref.Name))
	}
	slices.SortStableFunc(pre, byWeight)
	slices.SortStableFunc(post, byWeight)
	return pre, main, post
}

// runHooks applies hooks one at a time, in order, waiting for each to be
// healthy before the next; it stops at the first that fails. waitCtx
// bounds the waits, ctx carries the writes. As in Helm, hooks with
// hook-succeeded are deleted once every hook of the stage succeeded, not
// one by one: a hook Job still needs the ServiceAccount, Role and
// RoleBinding hooks it runs as.
//
// A hook is waited for as the workloads are (waitOptions): it fails as
// soon as its pods show a signal that waiting will not heal (unless
// Options.NoFailFast), and a hook that failed or timed out is diagnosed,
// the Secret values of set (every object of the run) masked, its
// diagnosis's Source the hook's manifest position (a chart's template).
// The error is then a *hookError, whose results hookHealth gives.
//
// ran records, for the parent, the digest of each hook-succeeded hook that
// succeeded (helmhook.Digest).
func runHooks(waitCtx, ctx context.Context, c *kube.Client, hooks, set []plan.Change, opts Options, ran map[string]string) ([]ObjectResult, error) {
	var out []ObjectResult
	var succeeded []plan.Ref
	wopts := waitOptions(set, opts)
	if wopts.Timeout <= 0 {
		wopts.Timeout = defaultHookTimeout
	}
	for _, ch := range hooks {
		h := helmhook.Of(ch.Object)
		res, err := applyOne(ctx, c, ch, opts)
		if err != nil {
			return out, fmt.Errorf("%s hook: %w", h, err)
		}
		out = append(out, res)
		results, err := health.Wait(waitCtx, c, []plan.Ref{ch.Ref}, wopts)
		withSources(results, err, []plan.Change{ch})
		if err == nil {
			err = fenceCheck(ctx)
		}
		if err != nil {
			if h.Deletes(helmhook.HookFailed) {
				deleteHook(ctx, c, ch.Ref)
			}
			return out, &hookError{hook: h.String(), ref: ch.Ref, results: results, err: err}
		}
		if h.Deletes(helmhook.HookSucceeded) {
			succeeded = append(succeeded, ch.Ref)
			ran[helmhook.Key(ch.Ref.Namespace, ch.Ref.String())] = helmhook.Digest(ch.Object)
		}
	}
	for _, ref := range succeeded {
		deleteHook(ctx, c, ref)
	}
	return out, nil
}

// hookError is a hook that did not succeed: the run stops there.
type hookError struct {
	hook    string // its events: "pre-install,pre-upgrade"
	ref     plan.Ref
	results []health.Result // its wait's results, diagnosed
	err     error
}

func (e *hookError) Error() string {
	return fmt.Sprintf("%s hook %s did not succeed, the run stops here: %v", e.hook, e.ref, e.err)
}

func (e *hookError) Unwrap() error { return e.err }

// hookHealth is the health of the hook that failed in err (its wait's
// results, with their diagnosis), nil when err is not a hook's failure.
// The apply's Result.Health carries it, so that every view shows why the
// hook failed, as for a workload.
func hookHealth(err error) []health.Result {
	var he *hookError
	if !errors.As(err, &he) {
		return nil
	}
	return he.results
}

// deleteHook deletes a hook after it ran, with its dependents (a Job's
// Pods) in the background. It is best effort: an error is ignored, and
// the next run finds the hook and plans it again.
func deleteHook(ctx context.Context, c *kube.Client, ref plan.Ref) {
	gvr, err := resourceFor(c, ref)
	if err != nil {
		return
	}
	bg := metav1.DeletePropagationBackground
	_ = c.Dynamic.Resource(gvr).Namespace(ref.Namespace).Delete(ctx, ref.Name, metav1.DeleteOptions{PropagationPolicy: &bg})
}

// hookRefs is the set of the refs of hooks.
func hookRefs(hooks []plan.Change) map[plan.Ref]bool {
	m := make(map[plan.Ref]bool, len(hooks))
	for _, ch := range hooks {
		m[ch.Ref] = true
	}
	return m
}

// hooksRanRecord is the parent's helmhook.RanAnnotation after a run: the
// hooks recorded before that are still in the set and unchanged (planned
// Unchanged: not run), and the ones this run ran. Hooks that left the set
// or changed are dropped. It is "" when there is nothing to record.
func hooksRanRecord(before string, keep []plan.Change, ran map[string]string) string {
	old := helmhook.ParseRan(before)
	out := map[string]string{}
	for _, ch := range keep {
		k := helmhook.Key(ch.Ref.Namespace, ch.Ref.String())
		if d, ok := ran[k]; ok {
			out[k] = d
		} else if d, ok := old[k]; ok && ch.Action == plan.Unchanged {
			out[k] = d
		}
	}
	if len(out) == 0 {
		return ""
	}
	data, _ := json.Marshal(out) // sorted keys: the same record compares equal
	return string(data)
}
