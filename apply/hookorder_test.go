package apply

import (
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/helmhook"
	"github.com/kubeplan/kubeplan/plan"
)

// Hooks of one weight go in Helm's install order by kind: a hook Job
// after the ServiceAccount, Role and RoleBinding hooks it runs as
// (ingress-nginx's admission hooks), unknown kinds last; weight first.
func TestSplitHooksKindOrder(t *testing.T) {
	hook := func(kind, name, weight string) plan.Change {
		ann := map[string]any{helmhook.Annotation: "pre-install"}
		if weight != "" {
			ann[helmhook.WeightAnnotation] = weight
		}
		return plan.Change{Ref: plan.Ref{Kind: kind, Name: name}, Action: plan.Create,
			Object: map[string]any{"kind": kind, "metadata": map[string]any{"name": name, "annotations": ann}}}
	}
	changes := []plan.Change{
		hook("Job", "admission-create", ""),
		hook("RoleBinding", "admission", ""),
		hook("Role", "admission", ""),
		hook("Widget", "custom", ""),
		hook("ServiceAccount", "admission", ""),
		hook("ClusterRole", "admission", ""),
		hook("ConfigMap", "early", "-5"),
		hook("Job", "late", "10"),
	}
	pre, _, _ := splitHooks(changes, "install")
	var got []string
	for _, ch := range pre {
		got = append(got, ch.Ref.Kind+"/"+ch.Ref.Name)
	}
	want := "ConfigMap/early ServiceAccount/admission ClusterRole/admission Role/admission RoleBinding/admission Job/admission-create Widget/custom Job/late"
	if strings.Join(got, " ") != want {
		t.Errorf("order:\n got %s\nwant %s", strings.Join(got, " "), want)
	}
}

// A hook of a pre and a post event runs in both stages.
func TestSplitHooksBothStages(t *testing.T) {
	sa := plan.Change{Ref: plan.Ref{Kind: "ServiceAccount", Name: "admission"}, Action: plan.Create,
		Object: map[string]any{"metadata": map[string]any{"name": "admission", "annotations": map[string]any{
			helmhook.Annotation: "pre-install,pre-upgrade,post-install,post-upgrade"}}}}
	pre, main, post := splitHooks([]plan.Change{sa}, "upgrade")
	if len(pre) != 1 || len(post) != 1 || len(main) != 0 {
		t.Errorf("pre %d, main %d, post %d; want 1, 0, 1", len(pre), len(main), len(post))
	}
}
