package stage

import "github.com/kubeplan/kubeplan/internal/helmhook"

// Source says which vocabulary made an object a hook.
type Source string

// Sources of a hook.
const (
	None   Source = ""
	ArgoCD Source = "argocd"
	Helm   Source = "helm"
)

// Placement is what one object's annotations say about its order.
type Placement struct {
	// Hook is the vocabulary that makes the object a hook, None for an
	// object applied with the others.
	Hook Source
	// Phases are the hook's phases in the order annotated; [Sync] for an
	// object that is not a hook. A Helm hook's pre- events are PreSync,
	// its post- events PostSync; an Argo CD hook may name several phases
	// and runs in each.
	Phases []Phase
	// HelmEvents are a Helm hook's events (pre-install, post-upgrade,
	// ...): whether it runs on this apply stays Helm's rule
	// (helmhook.Hook.Pre and Post, plan/hooks.go).
	HelmEvents []string
	// Skip is true for argocd.argoproj.io/hook: Skip: the object is not
	// applied.
	Skip bool
	// Wave orders stages within a phase, lowest first: sync-wave, or a
	// Helm hook's weight.
	Wave int
	// DeletePolicies are the hook's delete policies in its vocabulary's
	// words (Argo CD's HookSucceeded..., Helm's hook-succeeded...), the
	// default (BeforeHookCreation, before-hook-creation) when none is
	// annotated; empty for an object that is not a hook.
	DeletePolicies []string
	// Groups are the kapp change groups the object is in, placeholders
	// filled; CRDs and Namespaces are also in kapp's default groups.
	Groups []string
	// Rules are the kapp change rules of the object.
	Rules []Rule
}

// Read places one object by its annotations. Problems are values the
// vocabularies do not allow; the placement then ignores them, as Argo CD
// and Helm would (a wave that is not an integer is wave 0).
func Read(o Object) (Placement, []Problem) { return read(o, 0) }

func read(o Object, idx int) (Placement, []Problem) {
	var p Placement
	var probs []Problem
	var h helmhook.Hook
	if _, ok := o.Annotations[helmhook.Annotation]; ok { // most objects are no Helm hook: no map built for them
		h = helmhook.Of(map[string]any{"metadata": map[string]any{"annotations": anyMap(o.Annotations)}})
	}
	if h.IsHook() {
		// Helm's annotations decide for a Helm hook (see the package doc).
		p.Hook, p.HelmEvents, p.Wave, p.DeletePolicies = Helm, h.Events, h.Weight, h.DeletePolicies
		if h.Pre("install") || h.Pre("upgrade") {
			p.Phases = append(p.Phases, PreSync)
		}
		if h.Post("install") || h.Post("upgrade") {
			p.Phases = append(p.Phases, PostSync)
		}
	} else {
		probs = append(probs, readArgo(o, &p, idx)...)
		if p.Hook == None && !p.Skip {
			p.Phases = []Phase{Sync}
		}
	}
	switch {
	case o.Group == "apiextensions.k8s.io" && o.Kind == "CustomResourceDefinition":
		p.Groups = append(p.Groups, CRDsGroup)
	case o.Group == "" && o.Kind == "Namespace":
		p.Groups = append(p.Groups, NamespacesGroup)
	}
	probs = append(probs, readKapp(o, &p, idx)...)
	return p, probs
}

func anyMap(m map[string]string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
