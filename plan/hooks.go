package plan

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The Helm hook annotations a rendered chart's objects keep (see docs/helm.md).
const (
	HookAnnotation             = "helm.sh/hook"
	HookWeightAnnotation       = "helm.sh/hook-weight"
	HookDeletePolicyAnnotation = "helm.sh/hook-delete-policy"
)

// Hook delete policies.
const (
	HookBeforeCreation = "before-hook-creation"
	HookSucceeded      = "hook-succeeded"
	HookFailed         = "hook-failed"
)

// Hook is what an object's Helm hook annotations say.
type Hook struct {
	// Events are the hook's events, e.g. [pre-install pre-upgrade]; empty
	// for an object that is not a hook.
	Events []string
	// Weight orders hooks of one phase, lowest first (default 0).
	Weight int
	// DeletePolicies are the helm.sh/hook-delete-policy values; Helm's
	// default, before-hook-creation, when the annotation is absent.
	DeletePolicies []string
}

// HookOf reads the Helm hook annotations of obj. A weight that is not an
// integer counts as 0, as in Helm.
func HookOf(obj map[string]any) Hook {
	md, _ := obj["metadata"].(map[string]any)
	ann, _ := md["annotations"].(map[string]any)
	events := splitList(ann[HookAnnotation])
	if len(events) == 0 {
		return Hook{}
	}
	h := Hook{Events: events, DeletePolicies: splitList(ann[HookDeletePolicyAnnotation])}
	if len(h.DeletePolicies) == 0 {
		h.DeletePolicies = []string{HookBeforeCreation}
	}
	if w, ok := ann[HookWeightAnnotation].(string); ok {
		h.Weight, _ = strconv.Atoi(strings.TrimSpace(w))
	}
	return h
}

func splitList(v any) []string {
	s, _ := v.(string)
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// IsHook reports whether the object is a Helm hook.
func (h Hook) IsHook() bool { return len(h.Events) > 0 }

// Pre reports whether the hook runs before the other objects in phase
// ("install" or "upgrade"): pre-install, pre-upgrade.
func (h Hook) Pre(phase string) bool { return slices.Contains(h.Events, "pre-"+phase) }

// Post reports whether the hook runs after the other objects are healthy in
// phase: post-install, post-upgrade.
func (h Hook) Post(phase string) bool { return slices.Contains(h.Events, "post-"+phase) }

// Deletes reports whether the hook has the delete policy p.
func (h Hook) Deletes(p string) bool { return slices.Contains(h.DeletePolicies, p) }

// String is the hook's events as annotated: "pre-install,pre-upgrade".
func (h Hook) String() string { return strings.Join(h.Events, ",") }

// HookPhase is the Helm phase an apply of p runs: "install" when the
// ApplySet parent does not exist yet (or the plan has none), else "upgrade".
func HookPhase(p *Plan) string { return hookPhase(p.Parent) }

func hookPhase(parent *Parent) string {
	if parent == nil || !parent.Exists {
		return "install"
	}
	return "upgrade"
}

// AnnotationHooksRan on the ApplySet parent records the hooks with the
// delete policy hook-succeeded that ran and were deleted, as a JSON object
// from HookKey to HookDigest. A later plan does not run such a hook again
// while its content is the same (see markHooks).
const AnnotationHooksRan = "kubeplan.dev/hooks-ran"

// HookKey names a hook in AnnotationHooksRan: "ns/job.batch/migrate".
func HookKey(r Ref) string { return r.Namespace + "/" + r.String() }

// HookDigest is a short digest of the hook as it is applied: a hook runs
// again when it changes.
func HookDigest(obj map[string]any) string {
	data, err := json.Marshal(obj) // map keys are sorted: stable
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:12])
}

// ParseHooksRan reads AnnotationHooksRan; a value kubeplan did not write
// reads as empty (the hooks then run again, as Helm runs them).
func ParseHooksRan(v string) map[string]string {
	m := map[string]string{}
	if v != "" {
		_ = json.Unmarshal([]byte(v), &m)
	}
	return m
}

// alreadyRan reports whether c is a hook-succeeded hook that ran with this
// content and was deleted afterwards: the plan would create it again.
func alreadyRan(c *Change, h Hook, ran map[string]string) bool {
	if c.Action != Create || !h.Deletes(HookSucceeded) || len(ran) == 0 {
		return false
	}
	d, ok := ran[HookKey(c.Ref)]
	return ok && d != "" && d == HookDigest(c.Object)
}

// markHooks records which changes are Helm hooks (Change.Hook) and plans
// them for this run's phase:
//   - a hook for neither pre- nor post- of the phase (a post-install hook
//     on an upgrade, pre-delete, post-delete, pre-rollback, post-rollback,
//     test) is not applied: it becomes Unchanged, its Reason says so, and
//     it stays in the set (it is not pruned);
//   - a hook-succeeded hook that the parent records as run with the same
//     content (AnnotationHooksRan) and that was deleted afterwards is not
//     created again: it becomes Unchanged with a Reason saying so, so a
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
		h := HookOf(c.Object)
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
			c.Reason = "hook ran: deleted after it succeeded (" + HookSucceeded + "); runs again when it changes"
		case c.Action == Update && h.Deletes(HookBeforeCreation) && neverReplaced[c.Ref.Group+"/"+c.Ref.Kind] == "":
			c.Action, c.Reason = Replace, HookDeletePolicyAnnotation+": "+HookBeforeCreation
			replaced = true
		}
	}
	return replaced
}
