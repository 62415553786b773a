package hpa

import "strings"

// Workload names a Deployment or StatefulSet (group apps) in a namespace.
type Workload struct {
	Kind, Namespace, Name string
}

// IsAutoscaler reports whether apiVersion and kind name a
// HorizontalPodAutoscaler (autoscaling/v1, v2 or a beta).
func IsAutoscaler(apiVersion, kind string) bool {
	return kind == "HorizontalPodAutoscaler" && group(apiVersion) == "autoscaling"
}

// Scalable reports whether apiVersion and kind name a workload whose
// spec.replicas an autoscaler may own: an apps Deployment or StatefulSet.
func Scalable(apiVersion, kind string) bool {
	return (kind == "Deployment" || kind == "StatefulSet") && group(apiVersion) == "apps"
}

// Target returns the workload the autoscaler obj (in namespace ns) scales,
// read from spec.scaleTargetRef; ok is false when it names no Deployment or
// StatefulSet. A scaleTargetRef without apiVersion is taken as apps.
func Target(obj map[string]any, ns string) (w Workload, ok bool) {
	spec, _ := obj["spec"].(map[string]any)
	ref, _ := spec["scaleTargetRef"].(map[string]any)
	kind, _ := ref["kind"].(string)
	name, _ := ref["name"].(string)
	apiVersion, _ := ref["apiVersion"].(string)
	if apiVersion == "" {
		apiVersion = "apps/v1"
	}
	if name == "" || !Scalable(apiVersion, kind) {
		return Workload{}, false
	}
	return Workload{Kind: kind, Namespace: ns, Name: name}, true
}

func group(apiVersion string) string {
	if i := strings.IndexByte(apiVersion, '/'); i >= 0 {
		return apiVersion[:i]
	}
	return ""
}
