package plan

import (
	"context"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeplan/kubeplan/internal/applyset"
)

// The marks other tools leave on the objects they own.
const (
	helmManagedBy      = "app.kubernetes.io/managed-by" // "Helm"
	helmReleaseName    = "meta.helm.sh/release-name"
	helmReleaseNS      = "meta.helm.sh/release-namespace"
	fluxKustomizeName  = "kustomize.toolkit.fluxcd.io/name"
	fluxKustomizeNS    = "kustomize.toolkit.fluxcd.io/namespace"
	fluxHelmName       = "helm.toolkit.fluxcd.io/name"
	fluxHelmNS         = "helm.toolkit.fluxcd.io/namespace"
	argoTrackingID     = "argocd.argoproj.io/tracking-id" // "<app>:<group>/<kind>:<namespace>/<name>"
	argoInstanceLabel  = "argocd.argoproj.io/instance"
	applySetOwnerLabel = "ApplySet "
)

// ForeignOwner names who other than the ApplySet setID owns live, or ""
// when no one does (or setID does): another ApplySet (by its id; only when
// setID is not empty, since without a set kubeplan keeps an object's
// ApplySet label), a Helm release, a Flux Kustomization or HelmRelease, or
// an Argo CD application. Argo CD's default label app.kubernetes.io/instance
// is not a mark: Helm charts set it too.
func ForeignOwner(live *unstructured.Unstructured, setID string) string {
	labels, ann := live.GetLabels(), live.GetAnnotations()
	if id := labels[applyset.LabelPartOf]; setID != "" && id != "" {
		if id == setID {
			return "" // ours: taken over (or made) by this set already
		}
		return applySetOwnerLabel + id
	}
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

// recordOwners notes on each change the live object's uid and, for an
// update or replace (a write that takes the object over), its other owner.
// Another ApplySet is named by its parent when a ConfigMap or Secret in
// the object's namespace (the plan's, for a cluster-scoped object)
// carries that id (one LIST each per set id),
// otherwise by its id.
func (p *planner) recordOwners(ctx context.Context, set *applySet, targets []*target, live map[*target]*unstructured.Unstructured, changes []Change) {
	setID := ""
	if set != nil {
		setID = set.parent.ID
	}
	names := map[string]string{}
	for i, t := range targets {
		l := live[t]
		if l == nil {
			continue
		}
		changes[i].LiveUID = string(l.GetUID())
		if a := changes[i].Action; a != Update && a != Replace {
			continue
		}
		owner := ForeignOwner(l, setID)
		if id, ok := strings.CutPrefix(owner, applySetOwnerLabel); ok {
			ns := l.GetNamespace()
			if ns == "" {
				ns = p.opts.Namespace
			}
			key := ns + "/" + id
			if _, done := names[key]; !done {
				names[key] = p.parentName(ctx, ns, id)
			}
			owner = applySetOwnerLabel + names[key]
		}
		changes[i].Owner = owner
	}
}

// parentName finds the parent of the ApplySet id among the ConfigMaps and
// Secrets of namespace ns ("configmap/other-set"); it returns id when it
// cannot (not there, or not allowed to list).
func (p *planner) parentName(ctx context.Context, ns, id string) string {
	for _, res := range []string{"configmaps", "secrets"} {
		ri := p.c.Dynamic.Resource(schema.GroupVersionResource{Version: "v1", Resource: res}).Namespace(ns)
		list, err := ri.List(ctx, metav1.ListOptions{LabelSelector: applyset.LabelID + "=" + id})
		if err != nil || len(list.Items) != 1 {
			continue
		}
		return strings.TrimSuffix(res, "s") + "/" + list.Items[0].GetName()
	}
	return id
}
