package stage

import (
	"fmt"
	"strconv"
	"strings"
)

// The Argo CD annotations (docs/user-guide/sync-waves.md and
// resource_hooks.md of argoproj/argo-cd).
const (
	WaveAnnotation         = "argocd.argoproj.io/sync-wave"
	HookAnnotation         = "argocd.argoproj.io/hook"
	DeletePolicyAnnotation = "argocd.argoproj.io/hook-delete-policy"
)

// Phase is when a hook runs, in Argo CD's words. Sync is also the phase of
// every object that is not a hook.
type Phase string

// The phases of a sync, in the order they run, then those a sync never
// runs: SyncFail only when a stage failed, PreDelete and PostDelete only
// when an Argo CD Application is deleted (kubeplan has no such event).
const (
	PreSync    Phase = "PreSync"
	Sync       Phase = "Sync"
	PostSync   Phase = "PostSync"
	SyncFail   Phase = "SyncFail"
	PreDelete  Phase = "PreDelete"
	PostDelete Phase = "PostDelete"
)

// Skip is the hook value that keeps an object out of the sync.
const Skip = "Skip"

// Rank orders the phases a sync runs (PreSync 0, Sync 1, PostSync 2,
// SyncFail 3); -1 for the others.
func (p Phase) Rank() int {
	switch p {
	case PreSync:
		return 0
	case Sync:
		return 1
	case PostSync:
		return 2
	case SyncFail:
		return 3
	}
	return -1
}

// The Argo CD hook delete policies.
const (
	HookSucceeded      = "HookSucceeded"
	HookFailed         = "HookFailed"
	BeforeHookCreation = "BeforeHookCreation"
)

// readArgo fills p from the Argo CD annotations of o.
func readArgo(o Object, p *Placement, idx int) []Problem {
	var probs []Problem
	if v, ok := o.Annotations[WaveAnnotation]; ok {
		// Argo CD reads the wave with strconv.Atoi: no spaces, no sign
		// other than a leading - or +.
		w, err := strconv.Atoi(v)
		if err != nil {
			probs = append(probs, o.problem(idx, ProblemAnnotation, WaveAnnotation,
				fmt.Sprintf("%s %q is not an integer: write a whole number such as \"-1\" or \"2\" (Argo CD would read it as wave 0)", WaveAnnotation, v)))
		} else {
			p.Wave = w
		}
	}
	if v, ok := o.Annotations[HookAnnotation]; ok {
		p.Hook = ArgoCD
		for _, f := range splitList(v) {
			switch Phase(f) {
			case PreSync, Sync, PostSync, SyncFail, PreDelete, PostDelete:
				p.Phases = appendNew(p.Phases, Phase(f))
			default:
				if f == Skip {
					p.Skip = true
					continue
				}
				probs = append(probs, o.problem(idx, ProblemAnnotation, HookAnnotation,
					fmt.Sprintf("%s %q is not a hook phase: use PreSync, Sync, PostSync, SyncFail, Skip, PreDelete or PostDelete (the case matters)", HookAnnotation, f)))
			}
		}
		if len(p.Phases) > 0 {
			// As in Argo CD (gitops-engine hook.Skip), Skip beside a
			// phase is ignored: the object is a hook of that phase.
			p.Skip = false
		}
		if len(p.Phases) == 0 {
			p.Hook = None
		}
	}
	if p.Hook != ArgoCD {
		if _, ok := o.Annotations[DeletePolicyAnnotation]; ok && !p.Skip {
			probs = append(probs, checkPolicies(o, idx)...)
		}
		return probs
	}
	probs = append(probs, checkPolicies(o, idx)...)
	for _, f := range splitList(o.Annotations[DeletePolicyAnnotation]) {
		if isArgoPolicy(f) {
			p.DeletePolicies = appendNew(p.DeletePolicies, f)
		}
	}
	if len(p.DeletePolicies) == 0 {
		p.DeletePolicies = []string{BeforeHookCreation}
	}
	return probs
}

func isArgoPolicy(s string) bool {
	return s == HookSucceeded || s == HookFailed || s == BeforeHookCreation
}

func checkPolicies(o Object, idx int) []Problem {
	var probs []Problem
	for _, f := range splitList(o.Annotations[DeletePolicyAnnotation]) {
		if !isArgoPolicy(f) {
			probs = append(probs, o.problem(idx, ProblemAnnotation, DeletePolicyAnnotation,
				fmt.Sprintf("%s %q is not a delete policy: use HookSucceeded, HookFailed or BeforeHookCreation (the default)", DeletePolicyAnnotation, f)))
		}
	}
	return probs
}

// splitList splits a comma list and trims its items, as Argo CD and Helm do.
func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func appendNew[T comparable](xs []T, x T) []T {
	for _, y := range xs {
		if y == x {
			return xs
		}
	}
	return append(xs, x)
}
