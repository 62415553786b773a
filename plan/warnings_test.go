package plan

import (
	"slices"
	"testing"
)

func TestPodSecurityWarning(t *testing.T) {
	for _, tc := range []struct {
		warning, level, version string
		ok                      bool
	}{
		{`would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "web" must set securityContext.allowPrivilegeEscalation=false)`, "restricted", "latest", true},
		{`would violate PodSecurity "baseline:v1.30": privileged (container "web" must not set securityContext.privileged=true)`, "baseline", "v1.30", true},
		{`would violate PodSecurity "baseline": hostNetwork`, "baseline", "latest", true},
		{`autoscaling/v2beta2 HorizontalPodAutoscaler is deprecated in v1.23+, unavailable in v1.26+; use autoscaling/v2 HorizontalPodAutoscaler`, "", "", false},
		{`unknown field "spec.colour"`, "", "", false},
		{`would violate PodSecurity "strict:latest": x`, "", "", false},
		{`would violate PodSecurity "restricted`, "", "", false},
	} {
		level, version, ok := podSecurityWarning(tc.warning)
		if level != tc.level || version != tc.version || ok != tc.ok {
			t.Errorf("podSecurityWarning(%q) = %q, %q, %v; want %q, %q, %v", tc.warning, level, version, ok, tc.level, tc.version, tc.ok)
		}
	}
}

// A warning is raised only where the enforce level refuses at least what
// the warning's level refuses, at the same version.
func TestEnforcementRefuses(t *testing.T) {
	for _, tc := range []struct {
		labels          map[string]string
		level, version  string
		refuses, active bool
	}{
		{map[string]string{"pod-security.kubernetes.io/enforce": "restricted"}, "restricted", "latest", true, true},
		{map[string]string{"pod-security.kubernetes.io/enforce": "restricted"}, "baseline", "latest", true, true},
		{map[string]string{"pod-security.kubernetes.io/enforce": "baseline"}, "restricted", "latest", false, true},
		{map[string]string{"pod-security.kubernetes.io/enforce": "baseline"}, "baseline", "latest", true, true},
		{map[string]string{"pod-security.kubernetes.io/enforce": "restricted", "pod-security.kubernetes.io/enforce-version": "v1.30"}, "restricted", "latest", false, true},
		{map[string]string{"pod-security.kubernetes.io/enforce": "restricted", "pod-security.kubernetes.io/enforce-version": "v1.30"}, "restricted", "v1.30", true, true},
		{map[string]string{"pod-security.kubernetes.io/enforce": "privileged"}, "baseline", "latest", false, false},
		{map[string]string{"pod-security.kubernetes.io/warn": "restricted"}, "restricted", "latest", false, false},
		{nil, "restricted", "latest", false, false},
		{map[string]string{"pod-security.kubernetes.io/enforce": "strict"}, "restricted", "latest", false, true},
	} {
		e := enforcementOf(tc.labels, "the live Namespace")
		if (e != nil) != tc.active {
			t.Errorf("enforcementOf(%v) = %+v, want active %v", tc.labels, e, tc.active)
			continue
		}
		if got := e != nil && e.refuses(tc.level, tc.version); got != tc.refuses {
			t.Errorf("%v refuses %s:%s = %v, want %v", tc.labels, tc.level, tc.version, got, tc.refuses)
		}
	}
}

func TestMaskWarnings(t *testing.T) {
	secret := map[string]any{"apiVersion": "v1", "kind": "Secret",
		"data":       map[string]any{"token": "aHVudGVyMg=="}, // hunter2
		"stringData": map[string]any{"url": "https://user:hunter2@db.example"}}
	got := maskWarnings(secret, []string{
		`webhook: token "hunter2" is weak`,
		`webhook: url https://user:hunter2@db.example is not allowed`,
		`data: aHVudGVyMg== looks base64`,
		`metadata.name: fine`,
	})
	want := []string{`webhook: token "***" is weak`, `webhook: url *** is not allowed`, `data: *** looks base64`, `metadata.name: fine`}
	if !slices.Equal(got, want) {
		t.Errorf("masked %q, want %q", got, want)
	}
	cm := map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "data": map[string]any{"token": "hunter2"}}
	if got := maskWarnings(cm, []string{`token "hunter2"`}); got[0] != `token "hunter2"` {
		t.Errorf("a ConfigMap's warning was masked: %q", got)
	}
}
