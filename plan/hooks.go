package plan

import (
	"fmt"

	"github.com/kubeplan/kubeplan/internal/helmhook"
)

// hookPhase is the Helm phase an apply runs (helmhook.Phase).
func hookPhase(parent *Parent) string {
	return helmhook.Phase(parent != nil && parent.Exists)
}

// alreadyRan reports whether c is a hook-succeeded hook that ran with this
// content and was deleted afterwards: the plan would create it again.
func alreadyRan(c *Change, h helmhook.Hook, ran map[string]string) bool {
	if c.Action != Create || !h.Deletes(helmhook.HookSucceeded) || len(ran) == 0 {
		return false
	}
	d, ok := ran[helmhook.Key(c.Ref.Namespace, c.Ref.String())]
	return ok && d != "" && d == helmhook.Digest(c.Object)
}

// markHooks records which changes are Helm hooks (Change.Hook) and plans
// them for this run's phase:
//   - a hook for neither pre- nor post- of the phase (a post-install hook
//     on an upgrade, pre-delete, post-delete, pre-rollback, post-rollback,
//     test) is not applied: it becomes Unchanged, its Reason says so, and
//     it stays in the set (it is not pruned);
//   - a hook-succeeded hook that the parent records as run with the same
//     content (helmhook.RanAnnotation) and that was deleted afterwards is
//     not created again: it becomes Unchanged with a Reason saying so, so a
//     scheduled apply does not run a migration Job on every round;
//   - a hook that would be updated in place and has the delete policy
//     before-hook-creation (Helm's default) is replaced: deleted and
//     created again, as Helm does. A replace of such a hook needs no
//     --replace (apply.CheckReplaces).
//
// It reports whether it turned an update into a replace: the identity
// must then be allowed to delete the object too.
func markHooks(changes []Change, phase string, ran map[string]string) (replaced bool) {
	for i := range changes {
		c := &changes[i]
		h := helmhook.Of(c.Object)
		if !h.IsHook() || c.Action == Prune || c.Action == Release {
			continue
		}
		c.Hook = h.String()
		switch {
		case !h.Pre(phase) && !h.Post(phase):
			c.Action, c.Diff, c.Drift, c.AfterCRD, c.WaitsFor = Unchanged, "", nil, false, ""
			c.Reason = fmt.Sprintf("skipped hook: %s, not run on %s", h, phase)
		case alreadyRan(c, h, ran):
			c.Action, c.Diff, c.Drift, c.AfterCRD, c.WaitsFor = Unchanged, "", nil, false, ""
			c.Reason = "hook ran: deleted after it succeeded (" + helmhook.HookSucceeded + "); runs again when it changes"
		case c.Action == Update && h.Deletes(helmhook.BeforeHookCreation) && neverReplaced[c.Ref.Group+"/"+c.Ref.Kind] == "":
			c.Action, c.Reason = Replace, helmhook.DeletePolicyAnnotation+": "+helmhook.BeforeHookCreation
			replaced = true
		}
	}
	return replaced
}
