package plan

import (
	"testing"

	"github.com/kubeplan/kubeplan/internal/helmhook"
)

func hookObj(ann map[string]any) map[string]any {
	return map[string]any{"metadata": map[string]any{"annotations": ann}}
}

func TestMarkHooks(t *testing.T) {
	obj := func(hook, policy string) map[string]any {
		ann := map[string]any{helmhook.Annotation: hook}
		if policy != "" {
			ann[helmhook.DeletePolicyAnnotation] = policy
		}
		return hookObj(ann)
	}
	p := &Plan{Parent: &Parent{Exists: true}, Changes: []Change{
		{Ref: Ref{Kind: "Job", Name: "a"}, Action: Update, Diff: "d", Object: obj("pre-upgrade", "")},
		{Ref: Ref{Kind: "Job", Name: "b"}, Action: Update, Diff: "d", Object: obj("pre-upgrade", "hook-succeeded")},
		{Ref: Ref{Kind: "ConfigMap", Name: "c"}, Action: Create, Diff: "d", Object: obj("post-install", "")},
		{Ref: Ref{Kind: "ConfigMap", Name: "d"}, Action: Create, Diff: "d", Object: obj("test", "")},
		{Ref: Ref{Kind: "ConfigMap", Name: "e"}, Action: Create, Object: hookObj(nil)},
		{Ref: Ref{Kind: "ConfigMap", Name: "f"}, Action: Prune, Object: obj("pre-upgrade", "")},
	}}
	if !markHooks(p.Changes, hookPhase(p.Parent), nil) {
		t.Error("markHooks did not report the replace it planned")
	}
	want := []struct {
		action       Action
		hook, reason string
	}{
		{Replace, "pre-upgrade", "helm.sh/hook-delete-policy: before-hook-creation"},
		{Update, "pre-upgrade", ""},
		{Unchanged, "post-install", "skipped hook: post-install, not run on upgrade"},
		{Unchanged, "test", "skipped hook: test, not run on upgrade"},
		{Create, "", ""},
		{Prune, "", ""},
	}
	for i, w := range want {
		c := p.Changes[i]
		if c.Action != w.action || c.Hook != w.hook || c.Reason != w.reason {
			t.Errorf("%s: %s %q %q, want %s %q %q", c.Ref.Name, c.Action, c.Hook, c.Reason, w.action, w.hook, w.reason)
		}
		if c.Action == Unchanged && c.Diff != "" {
			t.Errorf("%s: a skipped hook keeps its diff", c.Ref.Name)
		}
	}
	p.Parent = nil
	if hookPhase(p.Parent) != "install" {
		t.Error("no parent is not an install")
	}
}
