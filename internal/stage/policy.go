package stage

import "slices"

// When a hook is deleted, in both vocabularies' words.
const (
	// DeleteBefore: the live hook is deleted before it is created again
	// (BeforeHookCreation, before-hook-creation; the default of both).
	DeleteBefore = "before"
	// DeleteSucceeded: the hook is deleted once it succeeded.
	DeleteSucceeded = "succeeded"
	// DeleteFailed: the hook is deleted once it failed.
	DeleteFailed = "failed"
)

// Deletes reports whether the hook is deleted at when (DeleteBefore,
// DeleteSucceeded or DeleteFailed), whichever vocabulary made it a hook;
// false for an object that is not a hook.
func (p Placement) Deletes(when string) bool {
	var word string
	switch {
	case p.Hook == ArgoCD && when == DeleteBefore:
		word = BeforeHookCreation
	case p.Hook == ArgoCD && when == DeleteSucceeded:
		word = HookSucceeded
	case p.Hook == ArgoCD && when == DeleteFailed:
		word = HookFailed
	case p.Hook == Helm && when == DeleteBefore:
		word = "before-hook-creation"
	case p.Hook == Helm && when == DeleteSucceeded:
		word = "hook-succeeded"
	case p.Hook == Helm && when == DeleteFailed:
		word = "hook-failed"
	default:
		return false
	}
	return slices.Contains(p.DeletePolicies, word)
}

// PolicyAnnotation is the annotation that holds the hook's delete
// policies in its vocabulary ("" for an object that is not a hook).
func (p Placement) PolicyAnnotation() string {
	switch p.Hook {
	case ArgoCD:
		return DeletePolicyAnnotation
	case Helm:
		return "helm.sh/hook-delete-policy"
	}
	return ""
}

// Awaited is what a stage waits for of an object of kind (group) it wrote
// before the next stage starts, in a few words: "complete" for a Job,
// "rolled out" for the workloads, "Established" for a CRD, "bound" for a
// PersistentVolumeClaim, "ready" for the rest (kubeplan's health check:
// Current in kstatus's words).
func Awaited(group, kind string) string {
	switch {
	case group == "batch" && kind == "Job":
		return "complete"
	case group == "apps" && (kind == "Deployment" || kind == "StatefulSet" || kind == "DaemonSet" || kind == "ReplicaSet"):
		return "rolled out"
	case group == "apiextensions.k8s.io" && kind == "CustomResourceDefinition":
		return "Established"
	case group == "" && kind == "PersistentVolumeClaim":
		return "bound"
	case group == "" && kind == "Pod":
		return "ready or succeeded"
	}
	return "ready"
}
