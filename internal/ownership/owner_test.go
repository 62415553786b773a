package ownership_test

import (
	"testing"

	"github.com/kubeplan/kubeplan/internal/ownership"
)

func TestOwner(t *testing.T) {
	for _, tc := range []struct {
		name        string
		labels, ann map[string]string
		want        string
	}{
		{"no marks", map[string]string{"app": "web"}, nil, ""},
		{"any ApplySet member", map[string]string{"applyset.kubernetes.io/part-of": "applyset-x-v1"}, nil, "ApplySet applyset-x-v1"},
		{"an ApplySet parent", map[string]string{"applyset.kubernetes.io/id": "applyset-x-v1"}, nil, "the parent of ApplySet applyset-x-v1"},
		{"Helm release", map[string]string{"app.kubernetes.io/managed-by": "Helm"}, map[string]string{"meta.helm.sh/release-name": "shop"}, "Helm release shop"},
		{"Helm label without a release is no mark", map[string]string{"app.kubernetes.io/managed-by": "Helm"}, nil, ""},
		{"Helm release record", map[string]string{"owner": "helm", "name": "shop", "status": "deployed"}, nil, "Helm release shop (its record)"},
		{"Flux Kustomization", map[string]string{"kustomize.toolkit.fluxcd.io/name": "apps", "kustomize.toolkit.fluxcd.io/namespace": "flux-system"}, nil, "Flux Kustomization apps in flux-system"},
		{"Argo CD tracking id", nil, map[string]string{"argocd.argoproj.io/tracking-id": "shop:apps/Deployment:store/web"}, "Argo CD application shop"},
		{"Argo CD instance label", map[string]string{"argocd.argoproj.io/instance": "shop"}, nil, "Argo CD application shop"},
	} {
		if got := ownership.Owner(tc.labels, tc.ann); got != tc.want {
			t.Errorf("%s: Owner = %q, want %q", tc.name, got, tc.want)
		}
	}
}
