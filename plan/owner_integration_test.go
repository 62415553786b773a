package plan_test

import (
	"context"
	"testing"

	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
	"github.com/kubeplan/kubeplan/plan"
)

// The plan names who else owns each object it would take over: another
// ApplySet by its parent (by its id once the parent is gone), Flux; it
// completes anyway, and planning without a set keeps an object's set.
func TestIntegrationPlanOwners(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	kc := narrow(t, c, ns)
	ctx := context.Background()
	otherID := applyset.Parent{Kind: "ConfigMap", Name: "other-set", Namespace: ns}.ID()
	c.Kubectl(t, "-n", ns, "create", "configmap", "other-set")
	c.Kubectl(t, "-n", ns, "label", "configmap", "other-set", applyset.LabelID+"="+otherID)
	c.Kubectl(t, "-n", ns, "create", "configmap", "shared", "--from-literal=value=theirs")
	c.Kubectl(t, "-n", ns, "label", "configmap", "shared", applyset.LabelPartOf+"="+otherID)
	c.Kubectl(t, "-n", ns, "create", "configmap", "fluxed", "--from-literal=value=theirs")
	c.Kubectl(t, "-n", ns, "label", "configmap", "fluxed", "kustomize.toolkit.fluxcd.io/name=apps", "kustomize.toolkit.fluxcd.io/namespace=flux-system")
	dir := writeSet(t, map[string]string{
		"shared.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: shared}\ndata: {value: ours}\n",
		"fluxed.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: fluxed}\ndata: {value: ours}\n",
		"new.yaml":    "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: new}\ndata: {value: ours}\n",
	})
	as := applyset.Parent{Kind: "ConfigMap", Name: "gitops-applyset", Namespace: ns}
	owners := func(as *applyset.Parent) map[string]string {
		t.Helper()
		p, err := plan.Make(ctx, client(t, kc, ns), load(t, dir), plan.Options{Namespace: ns, ApplySet: as})
		if err != nil {
			t.Fatalf("plan: %v", err)
		}
		out := map[string]string{}
		for _, ch := range p.Changes {
			out[ch.Ref.Name] = ch.Owner
			if ch.Ref.Name != "new" && ch.LiveUID == "" {
				t.Errorf("%s: no live uid", ch.Ref)
			}
		}
		return out
	}

	got := owners(&as)
	for name, want := range map[string]string{"shared": "ApplySet configmap/other-set", "fluxed": "Flux Kustomization apps in flux-system", "new": ""} {
		if got[name] != want {
			t.Errorf("with the set: owner of %s = %q, want %q", name, got[name], want)
		}
	}
	if got := owners(nil); got["shared"] != "" || got["fluxed"] != "Flux Kustomization apps in flux-system" {
		t.Errorf("without a set: owners %v", got)
	}
	c.Kubectl(t, "-n", ns, "delete", "configmap", "other-set")
	if got := owners(&as); got["shared"] != "ApplySet "+otherID {
		t.Errorf("parent gone: owner of shared = %q, want the id", got["shared"])
	}
}
