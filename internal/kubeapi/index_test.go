package kubeapi

import (
	"slices"
	"testing"
)

func index(t *testing.T) *APIIndex {
	t.Helper()
	ix, err := Index()
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

func TestVersions(t *testing.T) {
	want := []string{"1.33", "1.34", "1.35", "1.36", "1.37"}
	if got := Versions(); !slices.Equal(got, want) {
		t.Errorf("Versions() = %v, want %v", got, want)
	}
	if KubeVersion != want[len(want)-1] {
		t.Errorf("KubeVersion = %s, want the newest indexed minor", KubeVersion)
	}
	ix := index(t)
	for _, v := range want {
		if len(ix.served[v]) < 50 {
			t.Errorf("%s: only %d served resources", v, len(ix.served[v]))
		}
	}
}

func TestServed(t *testing.T) {
	ix := index(t)
	r, ok := ix.Served("1.37", "apps", "v1", "Deployment")
	if !ok || r.Resource != "deployments" || !r.Namespaced {
		t.Errorf("apps/v1 Deployment in 1.37: %+v, %v", r, ok)
	}
	for _, v := range []string{"v1.37", "1.37.2"} {
		if _, ok := ix.Served(v, "apps", "v1", "Deployment"); !ok {
			t.Errorf("Served(%q) does not normalize the version", v)
		}
	}
	if r, ok := ix.Served("1.37", "", "v1", "Namespace"); !ok || r.Namespaced || r.Resource != "namespaces" {
		t.Errorf("v1 Namespace: %+v, %v", r, ok)
	}
	if _, ok := ix.Served("1.37", "extensions", "v1beta1", "Deployment"); ok {
		t.Error("extensions/v1beta1 Deployment served in 1.37")
	}
	if _, ok := ix.Served("1.37", "", "v1", "Scale"); ok {
		t.Error("a subresource-only kind (Scale) is listed as served")
	}
	if _, ok := ix.Served("1.20", "apps", "v1", "Deployment"); ok {
		t.Error("unindexed version 1.20 reported as serving")
	}
	if got := ix.ServedIn("apps", "v1", "Deployment"); !slices.Equal(got, Versions()) {
		t.Errorf("ServedIn(apps/v1 Deployment) = %v", got)
	}
	if got := ix.ServedIn("extensions", "v1beta1", "Ingress"); len(got) != 0 {
		t.Errorf("ServedIn(extensions/v1beta1 Ingress) = %v", got)
	}
}

func TestByKind(t *testing.T) {
	ix := index(t)
	got := ix.ByKind("1.37", "Deployment")
	if len(got) == 0 || got[0].Group != "apps" || got[0].Version != "v1" {
		t.Errorf("ByKind(1.37, Deployment) = %+v", got)
	}
	events := ix.ByKind("1.37", "Event")
	if len(events) < 2 || events[0].Group != "" {
		t.Errorf("ByKind(1.37, Event) = %+v, want core v1 first", events)
	}
	if got := ix.ByKind("1.37", "NoSuchKind"); got != nil {
		t.Errorf("ByKind(NoSuchKind) = %v", got)
	}
	// Preferred, then stable before beta before alpha.
	for _, kind := range []string{"ValidatingAdmissionPolicy", "ResourceClaim", "Lease"} {
		list := ix.ByKind("1.37", kind)
		for i := 1; i < len(list); i++ {
			if compareAPIVersions(list[i-1].Version, list[i].Version) > 0 {
				t.Errorf("ByKind(1.37, %s) not ordered: %+v", kind, list)
			}
		}
	}
}

func TestLifecycle(t *testing.T) {
	ix := index(t)
	l, ok := ix.Lifecycle("extensions", "v1beta1", "Deployment")
	if !ok || l.Removed != "1.16" || l.Replacement != "apps/v1 Deployment" {
		t.Errorf("extensions/v1beta1 Deployment: %+v, %v", l, ok)
	}
	l, ok = ix.Lifecycle("flowcontrol.apiserver.k8s.io", "v1beta3", "FlowSchema")
	if !ok || l.Introduced != "1.26" || l.Deprecated != "1.29" || l.Removed != "1.32" ||
		l.Replacement != "flowcontrol.apiserver.k8s.io/v1 FlowSchema" {
		t.Errorf("flowcontrol v1beta3 FlowSchema: %+v, %v", l, ok)
	}
	l, ok = ix.Lifecycle("rbac.authorization.k8s.io", "v1beta1", "ClusterRole")
	if !ok || l.Removed != "1.22" || l.Replacement != "rbac.authorization.k8s.io/v1 ClusterRole" {
		t.Errorf("rbac v1beta1 ClusterRole: %+v, %v", l, ok)
	}
	if _, ok := ix.Lifecycle("apps", "v1beta1", "DeploymentList"); ok {
		t.Error("List kinds are in the lifecycle table")
	}
	if l, ok := ix.Lifecycle("", "v1", "ConfigMap"); !ok || l.Introduced == "" || l.Removed != "" {
		t.Errorf("v1 ConfigMap: %+v, %v", l, ok)
	}
}

func TestCompareAPIVersions(t *testing.T) {
	ordered := []string{"v2", "v1", "v2beta1", "v1beta2", "v1beta1", "v1alpha3", "v1alpha1", "foo"}
	for i := 1; i < len(ordered); i++ {
		if compareAPIVersions(ordered[i-1], ordered[i]) >= 0 {
			t.Errorf("%s should sort before %s", ordered[i-1], ordered[i])
		}
	}
}
