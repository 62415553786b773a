package orphans

import (
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// madeBy says who other than a person made o, an object of kind kind in
// group group, or "" when nothing says so: a controller (any
// ownerReference), Kubernetes itself, or a well-known controller that
// leaves no ownerReference. near is what else the namespace holds (its
// Services and StatefulSets). docs/orphans.md lists these rules.
func madeBy(group, kind string, o *metav1.PartialObjectMetadata, near *neighbours) string {
	if refs := o.GetOwnerReferences(); len(refs) > 0 {
		return "a controller (owned by " + strings.ToLower(refs[0].Kind) + "/" + refs[0].Name + ")"
	}
	name, labels, ann := o.GetName(), o.GetLabels(), o.GetAnnotations()
	switch typeName(kind, group) {
	case "serviceaccount":
		if name == "default" {
			return "Kubernetes (every namespace's default ServiceAccount)"
		}
	case "configmap":
		if name == "kube-root-ca.crt" {
			return "Kubernetes (the cluster's CA bundle, published in every namespace)"
		}
		if n := systemConfigMaps[o.GetNamespace()]; n != nil && n[name] {
			return "Kubernetes (a control-plane ConfigMap in " + o.GetNamespace() + ")"
		}
	case "secret":
		if ann["kubernetes.io/service-account.name"] != "" {
			return "Kubernetes (a service-account token Secret)"
		}
		if c := ann["cert-manager.io/certificate-name"]; c != "" {
			return "cert-manager (the Secret of Certificate " + c + ")"
		}
	case "service":
		if name == "kubernetes" && o.GetNamespace() == "default" && labels["provider"] == "kubernetes" {
			return "Kubernetes (the API server's Service)"
		}
	case "endpoints":
		if labels["endpoints.kubernetes.io/managed-by"] != "" || near.services[name] {
			return "Kubernetes (the Endpoints of Service " + name + ")"
		}
	case "endpointslice.discovery.k8s.io":
		if m := labels["endpointslice.kubernetes.io/managed-by"]; m != "" {
			return "Kubernetes (an EndpointSlice " + m + " manages)"
		}
	case "persistentvolumeclaim":
		if sts := near.statefulSetOf(name); sts != "" {
			return "Kubernetes (a volume claim of StatefulSet " + sts + ")"
		}
	}
	return ""
}

// systemConfigMaps are the ConfigMaps the control plane writes in its own
// namespaces.
var systemConfigMaps = map[string]map[string]bool{
	"kube-system": {"extension-apiserver-authentication": true, "kube-apiserver-legacy-service-account-token-tracking": true, "kube-proxy": true, "kubeadm-config": true, "kubelet-config": true, "coredns": true},
	"kube-public": {"cluster-info": true},
}

// neighbours is what a namespace holds that other objects are made for:
// the names of its Services (whose Endpoints the control plane writes)
// and of its StatefulSets (whose volume claims it makes).
type neighbours struct {
	services     map[string]bool
	statefulSets map[string]bool
}

// statefulSetOf is the StatefulSet whose volumeClaimTemplates made the
// claim called name (<template>-<statefulset>-<ordinal>), or "".
func (n *neighbours) statefulSetOf(name string) string {
	i := strings.LastIndexByte(name, '-')
	if i < 0 || !digits(name[i+1:]) {
		return ""
	}
	rest := name[:i]
	for s := range n.statefulSets {
		if strings.HasSuffix(rest, "-"+s) && len(rest) > len(s)+1 {
			return s
		}
	}
	return ""
}

func digits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// typeName is kind.group in lower case, as kubectl names a type.
func typeName(kind, group string) string {
	if group == "" {
		return strings.ToLower(kind)
	}
	return strings.ToLower(kind) + "." + group
}
