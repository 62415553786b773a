package helmhook

import (
	"slices"
	"strconv"
	"strings"
)

// The Helm hook annotations a rendered chart's objects keep (see docs/helm.md).
const (
	Annotation             = "helm.sh/hook"
	WeightAnnotation       = "helm.sh/hook-weight"
	DeletePolicyAnnotation = "helm.sh/hook-delete-policy"
)

// Hook delete policies.
const (
	BeforeHookCreation = "before-hook-creation"
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

// Of reads the Helm hook annotations of obj. A weight that is not an
// integer counts as 0, as in Helm.
func Of(obj map[string]any) Hook {
	md, _ := obj["metadata"].(map[string]any)
	ann, _ := md["annotations"].(map[string]any)
	events := splitList(ann[Annotation])
	if len(events) == 0 {
		return Hook{}
	}
	h := Hook{Events: events, DeletePolicies: splitList(ann[DeletePolicyAnnotation])}
	if len(h.DeletePolicies) == 0 {
		h.DeletePolicies = []string{BeforeHookCreation}
	}
	if w, ok := ann[WeightAnnotation].(string); ok {
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

// Phase is the Helm phase an apply runs: "install" when the ApplySet
// parent does not exist yet (or there is none), else "upgrade".
func Phase(parentExists bool) string {
	if !parentExists {
		return "install"
	}
	return "upgrade"
}
