package lint

import (
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/kubeapi"
)

// TestRemovedAPIsOfTheGuide lints one object of every API the deprecation
// guide lists as removed, on the oldest and the newest indexed Kubernetes,
// and wants removed-api at the apiVersion with the guide's replacement.
func TestRemovedAPIsOfTheGuide(t *testing.T) {
	vs := kubeapi.Versions()
	for _, kv := range []string{vs[0], vs[len(vs)-1]} {
		for _, g := range kubeapi.Guide() {
			av := g.Version
			if g.Group != "" {
				av = g.Group + "/" + g.Version
			}
			src := "apiVersion: " + av + "\nkind: " + g.Kind + "\nmetadata: {name: x}\n"
			want := av + " " + g.Kind + " was removed in Kubernetes " + g.Removed + "; use " + g.Replacement
			rep := lintSrc(t, src, Options{KubeVersion: kv})
			var got []string
			for _, f := range rep.Findings {
				got = append(got, f.Rule+" "+f.Message)
			}
			if len(rep.Findings) != 1 || rep.Findings[0].Rule != "removed-api" || rep.Findings[0].Message != want ||
				rep.Findings[0].Line != 1 || rep.Findings[0].Col != 13 {
				t.Errorf("%s: %s %s: got %q, want 1:13 removed-api %q", kv, av, g.Kind, got, want)
			}
		}
	}
}

// TestReplacementHints holds the hints the issue found wrong.
func TestReplacementHints(t *testing.T) {
	for _, c := range []struct{ apiVersion, kind, want string }{
		{"networking.k8s.io/v1beta1", "IngressClass", "use networking.k8s.io/v1 IngressClass"},
		{"events.k8s.io/v1beta1", "Event", "use events.k8s.io/v1 Event"},
		{"policy/v1beta1", "PodSecurityPolicy", "removed in Kubernetes 1.25; use Pod Security Admission (pod-security.kubernetes.io labels on the Namespace)"},
		{"extensions/v1beta1", "PodSecurityPolicy", "removed in Kubernetes 1.16; use Pod Security Admission"},
		{"autoscaling/v2beta1", "HorizontalPodAutoscaler", "removed in Kubernetes 1.25; use autoscaling/v2 HorizontalPodAutoscaler"},
		{"autoscaling/v2beta2", "HorizontalPodAutoscaler", "removed in Kubernetes 1.26; use autoscaling/v2 HorizontalPodAutoscaler"},
		{"apiextensions.k8s.io/v1beta1", "CustomResourceDefinition", "removed in Kubernetes 1.22; use apiextensions.k8s.io/v1 CustomResourceDefinition"},
		{"flowcontrol.apiserver.k8s.io/v1beta1", "FlowSchema", "use flowcontrol.apiserver.k8s.io/v1 FlowSchema"},
		{"node.k8s.io/v1beta1", "RuntimeClass", "use node.k8s.io/v1 RuntimeClass"},
		// not in the guide; the replacement comes from the kind as served
		{"networking.k8s.io/v1beta1", "ServiceCIDR", "removed in Kubernetes 1.37; use networking.k8s.io/v1 ServiceCIDR"},
	} {
		rep := lintSrc(t, "apiVersion: "+c.apiVersion+"\nkind: "+c.kind+"\nmetadata: {name: x}\n", Options{KubeVersion: "1.37"})
		if len(rep.Findings) != 1 || rep.Findings[0].Rule != "removed-api" || !strings.Contains(rep.Findings[0].Message, c.want) {
			t.Errorf("%s %s: %+v, want removed-api %q", c.apiVersion, c.kind, rep.Findings, c.want)
		}
		for _, f := range rep.Findings {
			if strings.Contains(f.Message, "List") {
				t.Errorf("%s %s: a List kind suggested: %s", c.apiVersion, c.kind, f.Message)
			}
		}
	}
}

// TestUnknownAPIIsForWhatWasNeverServed: a made-up version is reported at
// the apiVersion, a kind typo at the kind, and none is a removed API.
func TestUnknownAPIIsForWhatWasNeverServed(t *testing.T) {
	src := "apiVersion: apps/v1\nkind: Deployement\nmetadata: {name: a}\n---\n" +
		"apiVersion: apps/v7\nkind: Deployment\nmetadata: {name: b}\n---\n" +
		"apiVersion: policy/v1\nkind: PodSecurityPolicy\nmetadata: {name: c}\n---\n" +
		"apiVersion: apps/v1\nkind: CronJob\nmetadata: {name: d}\n"
	rep := lintSrc(t, src, Options{})
	expect(t, rep,
		"2:7 unknown-api Kubernetes 1.37 does not serve apps/v1 Deployement; did you mean kind Deployment?",
		"5:13 unknown-api Kubernetes 1.37 does not serve apps/v7 Deployment; Deployment is served as apps/v1",
		"10:7 unknown-api Kubernetes 1.37 does not serve policy/v1 PodSecurityPolicy",
		// a kind served in another group: the apiVersion is what to fix
		"13:13 unknown-api Kubernetes 1.37 does not serve apps/v1 CronJob; CronJob is served as batch/v1",
	)
	for _, f := range rep.Findings {
		if f.Rule != "unknown-api" || f.Severity != Error {
			t.Errorf("%+v", f)
		}
	}
}
