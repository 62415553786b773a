package deploytest

import (
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

// TestBundleWebhooks: the webhooks component, added to an overlay that
// sets serve's args, keeps those args and adds --webhook-addr and
// --webhook-secret-file, the port webhooks apart from http, the Secret
// kubeplan-webhook where the flag reads it, the Service kubeplan-webhooks
// on that port, and the NetworkPolicy's ingress on it.
func TestBundleWebhooks(t *testing.T) {
	var dep appsv1.Deployment
	var svc corev1.Service
	var np networkingv1.NetworkPolicy
	into := func(u *unstructured.Unstructured, v any) {
		data, _ := yaml.Marshal(u.Object)
		if err := yaml.UnmarshalStrict(data, v); err != nil {
			t.Fatal(err)
		}
	}
	for _, u := range build(t, "test/deploytest/testdata/webhooks") {
		switch {
		case u.GetKind() == "Deployment":
			into(u, &dep)
		case u.GetKind() == "Service" && u.GetName() == "kubeplan-webhooks":
			into(u, &svc)
		case u.GetKind() == "NetworkPolicy":
			into(u, &np)
		}
	}
	c := dep.Spec.Template.Spec.Containers[0]
	for _, want := range []string{"--project=store", "--listen=:8080", "--webhook-addr=:9443", "--webhook-secret-file=/var/run/secrets/kubeplan/webhook/secret"} {
		if !slices.Contains(c.Args, want) {
			t.Errorf("args %v lack %s", c.Args, want)
		}
	}
	for _, a := range c.Args[1:] {
		name, _, _ := strings.Cut(a, "=")
		if !slices.Contains(serveFlags, name) {
			t.Errorf("arg %q: not a flag of kubeplan serve", a)
		}
	}
	if len(c.Ports) != 2 || c.Ports[1].Name != "webhooks" || c.Ports[1].ContainerPort != 9443 {
		t.Errorf("ports %+v", c.Ports)
	}
	mounted := false
	for _, m := range c.VolumeMounts {
		mounted = mounted || m.Name == "webhook-secret" && m.MountPath == "/var/run/secrets/kubeplan/webhook" && m.ReadOnly
	}
	secret := false
	for _, v := range dep.Spec.Template.Spec.Volumes {
		secret = secret || v.Name == "webhook-secret" && v.Secret != nil && v.Secret.SecretName == "kubeplan-webhook" &&
			len(v.Secret.Items) == 1 && v.Secret.Items[0].Key == "secret" && v.Secret.Items[0].Path == "secret"
	}
	if !mounted || !secret {
		t.Errorf("the webhook secret: mounted %v, volume %v", mounted, secret)
	}
	if len(svc.Spec.Ports) != 1 || svc.Spec.Ports[0].Port != 9443 || svc.Spec.Ports[0].TargetPort.String() != "webhooks" {
		t.Errorf("service kubeplan-webhooks %+v", svc.Spec.Ports)
	}
	var ports []int32
	for _, r := range np.Spec.Ingress {
		for _, p := range r.Ports {
			ports = append(ports, p.Port.IntVal)
		}
	}
	if !slices.Equal(ports, []int32{8080, 9443}) {
		t.Errorf("network policy ingress ports %v, want 8080 and 9443", ports)
	}
}
