package orphans

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func object(ns, name string, labels, ann map[string]string) *metav1.PartialObjectMetadata {
	return &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: labels, Annotations: ann}}
}

func TestMadeBy(t *testing.T) {
	near := &neighbours{services: map[string]bool{"web": true}, statefulSets: map[string]bool{"db": true, "db-replica": true}}
	owned := object("shop", "web-5fc9", nil, nil)
	owned.OwnerReferences = []metav1.OwnerReference{{Kind: "Deployment", Name: "web"}}
	for _, tc := range []struct {
		name        string
		group, kind string
		o           *metav1.PartialObjectMetadata
		made        bool
	}{
		{"anything with an owner", "apps", "ReplicaSet", owned, true},
		{"the default ServiceAccount", "", "ServiceAccount", object("shop", "default", nil, nil), true},
		{"another ServiceAccount", "", "ServiceAccount", object("shop", "bot", nil, nil), false},
		{"kube-root-ca.crt", "", "ConfigMap", object("shop", "kube-root-ca.crt", nil, nil), true},
		{"a ConfigMap by hand", "", "ConfigMap", object("shop", "hotfix", nil, nil), false},
		{"a control-plane ConfigMap", "", "ConfigMap", object("kube-system", "extension-apiserver-authentication", nil, nil), true},
		{"its name outside kube-system", "", "ConfigMap", object("shop", "extension-apiserver-authentication", nil, nil), false},
		{"a service-account token", "", "Secret", object("shop", "bot-token", nil, map[string]string{"kubernetes.io/service-account.name": "bot"}), true},
		{"cert-manager's Secret", "", "Secret", object("shop", "web-tls", nil, map[string]string{"cert-manager.io/certificate-name": "web"}), true},
		{"a Secret by hand", "", "Secret", object("shop", "db", nil, nil), false},
		{"the API server's Service", "", "Service", object("default", "kubernetes", map[string]string{"provider": "kubernetes", "component": "apiserver"}, nil), true},
		{"a Service called kubernetes elsewhere", "", "Service", object("shop", "kubernetes", map[string]string{"provider": "kubernetes"}, nil), false},
		{"Endpoints the controller labels", "", "Endpoints", object("shop", "api", map[string]string{"endpoints.kubernetes.io/managed-by": "endpoint-controller"}, nil), true},
		{"Endpoints of a Service", "", "Endpoints", object("shop", "web", nil, nil), true},
		{"Endpoints by hand, no Service", "", "Endpoints", object("shop", "external-db", nil, nil), false},
		{"an EndpointSlice the controller manages", "discovery.k8s.io", "EndpointSlice", object("shop", "web-abc", map[string]string{"endpointslice.kubernetes.io/managed-by": "endpointslicemirroring-controller.k8s.io"}, nil), true},
		{"an EndpointSlice by hand", "discovery.k8s.io", "EndpointSlice", object("shop", "external", nil, nil), false},
		{"a StatefulSet's claim", "", "PersistentVolumeClaim", object("shop", "data-db-0", nil, nil), true},
		{"a claim of a StatefulSet with a dash", "", "PersistentVolumeClaim", object("shop", "data-db-replica-12", nil, nil), true},
		{"a claim named like no StatefulSet", "", "PersistentVolumeClaim", object("shop", "data-cache-0", nil, nil), false},
		{"a claim without an ordinal", "", "PersistentVolumeClaim", object("shop", "data-db", nil, nil), false},
		{"a claim that is only the StatefulSet's name", "", "PersistentVolumeClaim", object("shop", "db-0", nil, nil), false},
		{"a Deployment by hand", "apps", "Deployment", object("shop", "debug", nil, nil), false},
	} {
		if got := madeBy(tc.group, tc.kind, tc.o, near); (got != "") != tc.made {
			t.Errorf("%s: madeBy = %q, want made: %v", tc.name, got, tc.made)
		}
	}
}

func TestLastManager(t *testing.T) {
	at := func(min int) *metav1.Time {
		tm := metav1.NewTime(time.Date(2026, 12, 1, 10, min, 0, 0, time.UTC))
		return &tm
	}
	for _, tc := range []struct {
		name   string
		fields []metav1.ManagedFieldsEntry
		want   string
	}{
		{"none", nil, ""},
		{"the newest", []metav1.ManagedFieldsEntry{{Manager: "kubectl-create", Time: at(1)}, {Manager: "kubectl-edit", Time: at(5)}, {Manager: "helm", Time: at(3)}}, "kubectl-edit"},
		{"status writers do not count", []metav1.ManagedFieldsEntry{{Manager: "kubectl-create", Time: at(1)}, {Manager: "kube-controller-manager", Subresource: "status", Time: at(9)}}, "kubectl-create"},
		{"only status writers", []metav1.ManagedFieldsEntry{{Manager: "kube-controller-manager", Subresource: "status", Time: at(9)}}, "kube-controller-manager"},
	} {
		if got := lastManager(tc.fields); got != tc.want {
			t.Errorf("%s: lastManager = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestSkipped(t *testing.T) {
	for _, gr := range [][2]string{{"", "events"}, {"events.k8s.io", "events"}, {"coordination.k8s.io", "leases"}} {
		if !skipped(gr[0], gr[1]) {
			t.Errorf("%s.%s is listed; Kubernetes alone writes it", gr[1], gr[0])
		}
	}
	if skipped("", "configmaps") || skipped("apps", "deployments") {
		t.Error("configmaps or deployments are skipped")
	}
}

func TestMadeAndListed(t *testing.T) {
	all := metav1.Verbs{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"}
	if !madeAndListed(all) {
		t.Error("a full type (configmaps) is not listed")
	}
	if madeAndListed(metav1.Verbs{"get", "list"}) {
		t.Error("a read-only view (metrics.k8s.io pods) is listed")
	}
	if madeAndListed(metav1.Verbs{"create"}) {
		t.Error("a create-only request (bindings) is listed")
	}
}
