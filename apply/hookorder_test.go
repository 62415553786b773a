package apply

import (
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/helmhook"
	"github.com/kubeplan/kubeplan/plan"
)

// Hooks of one stage (one weight) go in Helm's install order by kind: a
// hook Job after the ServiceAccount, Role and RoleBinding hooks it runs as
// (ingress-nginx's admission hooks), unknown kinds last. (Weights are
// stages: plan's TestStagesHelmHooks.)
func TestSortHooksKindOrder(t *testing.T) {
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
	}
	sortHooks(changes)
	var got []string
	for _, ch := range changes {
		got = append(got, ch.Ref.Kind+"/"+ch.Ref.Name)
	}
	want := "ServiceAccount/admission ClusterRole/admission Role/admission RoleBinding/admission Job/admission-create Widget/custom"
	if strings.Join(got, " ") != want {
		t.Errorf("order:\n got %s\nwant %s", strings.Join(got, " "), want)
	}
}
