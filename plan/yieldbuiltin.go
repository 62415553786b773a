package plan

import (
	"github.com/kubeplan/kubeplan/internal/config"
	"github.com/kubeplan/kubeplan/internal/hpa"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// builtinRule is a built-in yield rule: a rule of kubeplan.yaml's form,
// for the objects when says yes to (nil: every object of its kind).
type builtinRule struct {
	config.YieldRule
	when func(*unstructured.Unstructured) bool
}

// builtinRules are the built-in rules by name (config.YieldBuiltins;
// docs/yield.md). autoscalers has none here: it is the replicas logic of
// hpa.go, which needs the autoscalers of the set and of the cluster.
var builtinRules = map[string][]builtinRule{
	"autoscalers": nil,
	"ca-injectors": {
		caRule("admissionregistration.k8s.io", "MutatingWebhookConfiguration", "webhooks[*].clientConfig.caBundle"),
		caRule("admissionregistration.k8s.io", "ValidatingWebhookConfiguration", "webhooks[*].clientConfig.caBundle"),
		caRule("apiextensions.k8s.io", "CustomResourceDefinition", "spec.conversion.webhook.clientConfig.caBundle"),
		caRule("apiregistration.k8s.io", "APIService", "spec.caBundle"),
		{YieldRule: pathRule("", "ConfigMap", `data["service-ca.crt"]`), when: annotated(openshiftInjectCABundle)},
	},
	"aggregated-clusterroles": {{
		YieldRule: pathRule("rbac.authorization.k8s.io", "ClusterRole", "rules"),
		when: func(u *unstructured.Unstructured) bool {
			_, ok := u.Object["aggregationRule"]
			return ok
		},
	}},
	"vpa": {{YieldRule: config.YieldRule{Manager: "vpa-*"}}},
}

// The annotations that ask a CA injector to fill in a caBundle:
// cert-manager's cainjector and OpenShift's service-ca operator.
var caInjectAnnotations = []string{
	"cert-manager.io/inject-ca-from",
	"cert-manager.io/inject-ca-from-secret",
	"cert-manager.io/inject-apiserver-ca",
	openshiftInjectCABundle,
}

const openshiftInjectCABundle = "service.beta.openshift.io/inject-cabundle"

func caRule(group, kind, path string) builtinRule {
	return builtinRule{YieldRule: pathRule(group, kind, path), when: annotated(caInjectAnnotations...)}
}

func pathRule(group, kind, path string) config.YieldRule {
	p, err := config.ParseYieldPath(path)
	if err != nil {
		panic(err) // a built-in path is written right
	}
	return config.YieldRule{Kind: kind, Group: group, GroupSet: true, Paths: []config.YieldPath{p}, Raw: []string{path}}
}

// annotated says yes to an object with any of the annotations.
func annotated(keys ...string) func(*unstructured.Unstructured) bool {
	return func(u *unstructured.Unstructured) bool {
		a := u.GetAnnotations()
		for _, k := range keys {
			if v, ok := a[k]; ok && v != "false" {
				return true
			}
		}
		return false
	}
}

// scaledObjectTarget returns the workload a KEDA ScaledObject scales
// (spec.scaleTargetRef; its kind defaults to Deployment): KEDA makes a
// HorizontalPodAutoscaler for it, which owns its replicas.
func scaledObjectTarget(u *unstructured.Unstructured) (hpa.Workload, bool) {
	if u.GetKind() != "ScaledObject" || u.GroupVersionKind().Group != "keda.sh" {
		return hpa.Workload{}, false
	}
	ref, _, _ := unstructured.NestedMap(u.Object, "spec", "scaleTargetRef")
	if ref == nil {
		return hpa.Workload{}, false
	}
	if _, ok := ref["kind"]; !ok {
		ref["kind"] = "Deployment"
	}
	return hpa.Target(map[string]any{"spec": map[string]any{"scaleTargetRef": ref}}, u.GetNamespace())
}
