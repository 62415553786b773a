package ownership_test

import (
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kubeplan/kubeplan/internal/ownership"
)

func withMarks(labels, annotations map[string]string) *unstructured.Unstructured {
	o := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap"}}
	o.SetName("shared")
	o.SetLabels(labels)
	o.SetAnnotations(annotations)
	return o
}

func TestForeign(t *testing.T) {
	const ours, theirs = "applyset-ours-v1", "applyset-theirs-v1"
	partOf := "applyset.kubernetes.io/part-of"
	helm := map[string]string{"meta.helm.sh/release-name": "shop", "meta.helm.sh/release-namespace": "store"}
	for _, tc := range []struct {
		name        string
		labels, ann map[string]string
		setID       string
		want        string
	}{
		{"no marks", nil, nil, ours, ""},
		{"our set", map[string]string{partOf: ours}, nil, ours, ""},
		{"our set wins over helm marks", map[string]string{partOf: ours, "app.kubernetes.io/managed-by": "Helm"}, helm, ours, ""},
		{"another set", map[string]string{partOf: theirs}, nil, ours, "ApplySet " + theirs},
		{"another set, planned without one", map[string]string{partOf: theirs}, nil, "", ""},
		{"helm release", map[string]string{"app.kubernetes.io/managed-by": "Helm"}, helm, ours, "Helm release shop in store"},
		{"helm template output is no release", map[string]string{"app.kubernetes.io/managed-by": "Helm"}, nil, ours, ""},
		{"flux kustomization", map[string]string{"kustomize.toolkit.fluxcd.io/name": "apps", "kustomize.toolkit.fluxcd.io/namespace": "flux-system"}, nil, "", "Flux Kustomization apps in flux-system"},
		{"flux helmrelease", map[string]string{"helm.toolkit.fluxcd.io/name": "shop", "helm.toolkit.fluxcd.io/namespace": "store"}, nil, ours, "Flux HelmRelease shop in store"},
		{"argo tracking id", nil, map[string]string{"argocd.argoproj.io/tracking-id": "shop:/ConfigMap:store/shared"}, ours, "Argo CD application shop"},
		{"argo instance label", map[string]string{"argocd.argoproj.io/instance": "shop"}, nil, ours, "Argo CD application shop"},
		{"the common instance label is no mark", map[string]string{"app.kubernetes.io/instance": "shop"}, nil, ours, ""},
	} {
		if got := ownership.Foreign(withMarks(tc.labels, tc.ann), tc.setID); got != tc.want {
			t.Errorf("%s: Foreign = %q, want %q", tc.name, got, tc.want)
		}
	}
}
