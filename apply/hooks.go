package apply

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeplan/kubeplan/health"
	"github.com/kubeplan/kubeplan/internal/helmhook"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/internal/stage"
	"github.com/kubeplan/kubeplan/plan"
)

// Hooks: Helm's (helm.sh/hook, see docs/helm.md) and Argo CD's
// (argocd.argoproj.io/hook, see docs/ordering.md). A chart or a repository
// is applied as one ApplySet; its hooks are members like the other objects
// (labelled, pruned when they leave it). The plan places each hook in its
// stages (plan.Plan.Stages): a Helm hook in the PreSync stage of its weight
// when it runs before the others on this apply (pre-install on an install,
// pre-upgrade on an upgrade), in the PostSync stage when it runs after
// them; an Argo CD hook in the stages of its phases and wave. In its stage:
//
//   - hooks are applied one at a time, in Helm's kind order, each waited
//     for (a Job until Complete, others Current);
//   - a hook is applied when the plan changes it, as any object: an
//     unchanged hook is not run again; a hook deleted after it succeeded
//     (hook-succeeded, HookSucceeded) is recorded on the parent
//     (helmhook.RanAnnotation) so that the next plan does not create it
//     again while it is the same;
//   - before-hook-creation (BeforeHookCreation; the default of both)
//     deletes the live hook before it is created again (the plan shows a
//     replace), hook-succeeded and hook-failed (HookSucceeded, HookFailed)
//     delete it after it succeeded or failed (best effort: a failed delete
//     is not an error);
//   - hooks of other events (pre-delete, post-delete, rollback, test;
//     Argo CD's PreDelete, PostDelete, Skip) are never applied: the plan
//     keeps them unchanged, with a Reason. SyncFail hooks run only after a
//     stage failed (runner.syncFail).

// defaultHookTimeout bounds the wait for one hook when Options.Timeout is
// not set (Helm's default --timeout).
const defaultHookTimeout = 5 * time.Minute

// runHooks applies hooks one at a time, in order, waiting for each to be
// healthy before the next; it stops at the first that fails. waitCtx
// bounds the waits, ctx carries the writes. As in Helm, hooks with
// hook-succeeded (HookSucceeded) are deleted once every hook of the stage succeeded, not
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
// ran records, for the parent, the digest of each hook-succeeded (or
// HookSucceeded) hook that succeeded (helmhook.Digest).
func runHooks(waitCtx, ctx context.Context, c *kube.Client, hooks, set []plan.Change, opts Options, ran map[string]string) ([]ObjectResult, error) {
	var out []ObjectResult
	var succeeded []plan.Ref
	wopts := waitOptions(set, opts)
	if wopts.Timeout <= 0 {
		wopts.Timeout = defaultHookTimeout
	}
	for _, ch := range hooks {
		h := hookPlacement(ch)
		res, err := applyOne(ctx, c, ch, opts)
		if err != nil {
			return out, fmt.Errorf("%s hook: %w", ch.Hook, err)
		}
		out = append(out, res)
		results, err := health.Wait(waitCtx, c, []plan.Ref{ch.Ref}, wopts)
		withSources(results, err, []plan.Change{ch})
		if err == nil {
			err = fenceCheck(ctx)
		}
		if err != nil {
			if h.Deletes(stage.DeleteFailed) {
				deleteHook(ctx, c, ch.Ref)
			}
			return out, &hookError{hook: ch.Hook, ref: ch.Ref, results: results, err: err}
		}
		if h.Deletes(stage.DeleteSucceeded) {
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
