package ownership

import (
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kubeplan/kubeplan/internal/applyset"
)

// The marks other tools leave on the objects they own.
const (
	helmManagedBy     = "app.kubernetes.io/managed-by" // "Helm"
	helmReleaseName   = "meta.helm.sh/release-name"
	helmReleaseNS     = "meta.helm.sh/release-namespace"
	fluxKustomizeName = "kustomize.toolkit.fluxcd.io/name"
	fluxKustomizeNS   = "kustomize.toolkit.fluxcd.io/namespace"
	fluxHelmName      = "helm.toolkit.fluxcd.io/name"
	fluxHelmNS        = "helm.toolkit.fluxcd.io/namespace"
	argoTrackingID    = "argocd.argoproj.io/tracking-id" // "<app>:<group>/<kind>:<namespace>/<name>"
	argoInstanceLabel = "argocd.argoproj.io/instance"
)

// ApplySetPrefix starts what Foreign says of an object another ApplySet
// owns: "ApplySet " and that set's id.
const ApplySetPrefix = "ApplySet "

// Foreign names who other than the ApplySet setID owns live, or ""
// when no one does (or setID does): another ApplySet (by its id; only when
// setID is not empty, since without a set kubeplan keeps an object's
// ApplySet label), a Helm release, a Flux Kustomization or HelmRelease, or
// an Argo CD application. Argo CD's default label app.kubernetes.io/instance
// is not a mark: Helm charts set it too.
func Foreign(live *unstructured.Unstructured, setID string) string {
	labels, ann := live.GetLabels(), live.GetAnnotations()
	if id := labels[applyset.LabelPartOf]; setID != "" && id != "" {
		if id == setID {
			return "" // ours: taken over (or made) by this set already
		}
		return ApplySetPrefix + id
	}
	return toolMark(labels, ann)
}

// toolMark names the Helm release, Flux Kustomization or HelmRelease, or
// Argo CD application whose marks labels and ann carry, or "".
func toolMark(labels, ann map[string]string) string {
	if labels[helmManagedBy] == "Helm" && ann[helmReleaseName] != "" {
		return "Helm release " + ann[helmReleaseName] + in(ann[helmReleaseNS])
	}
	if n := labels[fluxKustomizeName]; n != "" {
		return "Flux Kustomization " + n + in(labels[fluxKustomizeNS])
	}
	if n := labels[fluxHelmName]; n != "" {
		return "Flux HelmRelease " + n + in(labels[fluxHelmNS])
	}
	if id := ann[argoTrackingID]; id != "" {
		app, _, _ := strings.Cut(id, ":")
		return "Argo CD application " + app
	}
	if app := labels[argoInstanceLabel]; app != "" {
		return "Argo CD application " + app
	}
	return ""
}

func in(ns string) string {
	if ns == "" {
		return ""
	}
	return " in " + ns
}
