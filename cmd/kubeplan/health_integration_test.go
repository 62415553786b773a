package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

// certCRD is a CRD shaped like cert-manager's Certificate: a status
// subresource whose conditions the test writes, as the operator would.
const certCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: certificates.certs.health.example.com
spec:
  group: certs.health.example.com
  names: {kind: Certificate, plural: certificates, singular: certificate, listKind: CertificateList}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              secretName: {type: string}
              dnsNames: {type: array, items: {type: string}}
          status:
            type: object
            properties:
              conditions:
                type: array
                items:
                  type: object
                  properties:
                    type: {type: string}
                    status: {type: string}
                    reason: {type: string}
                    message: {type: string}
`

// healthConfig is kubeplan.yaml with a health rule for that kind, in the
// shape Flux's healthCheckExprs have: Ready=True is current, Ready=False
// with reason Failed is failed, anything else waits.
const healthConfig = `crds: [crd.yaml]
health:
  - apiVersion: certs.health.example.com/v1
    kind: Certificate
    current: status.conditions.exists(e, e.type == 'Ready' && e.status == 'True')
    failed: status.conditions.exists(e, e.type == 'Ready' && e.status == 'False' && e.reason == 'Failed')
`

func certificate(name string) string {
	return "apiVersion: certs.health.example.com/v1\nkind: Certificate\nmetadata:\n  name: " + name +
		"\nspec:\n  secretName: " + name + "-tls\n  dnsNames: [shop.example.com]\n"
}

// TestIntegrationHealthRules applies a custom resource with apply --wait
// on testcluster: the wait judges it by kubeplan.yaml's health rule in
// CEL, not kstatus. With no status yet and then Ready=False (Pending) it
// waits; Ready=True ends the apply with success. Ready=False with reason
// Failed fails the apply at once, naming the rule and where it is.
func TestIntegrationHealthRules(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	kc := c.AdminKubeconfig()
	cfgDir := writeManifests(t, map[string]string{"crd.yaml": certCRD, "kubeplan.yaml": healthConfig})
	cfg := filepath.Join(cfgDir, "kubeplan.yaml")
	t.Cleanup(func() {
		_, _ = c.TryKubectl("delete", "crd", "certificates.certs.health.example.com", "--ignore-not-found", "--wait=false")
	})
	c.Kubectl(t, "apply", "-f", filepath.Join(cfgDir, "crd.yaml"))
	c.Kubectl(t, "wait", "--for", "condition=Established", "--timeout", "30s", "crd/certificates.certs.health.example.com")

	type result struct {
		code        int
		out, stderr string
		took        time.Duration
	}
	apply := func(name string) <-chan result {
		dir := writeManifests(t, map[string]string{"cert.yaml": certificate(name)})
		done := make(chan result, 1)
		go func() {
			start := time.Now()
			code, out, errs := cli("apply", "--config", cfg, "--kubeconfig", kc, "-n", ns, "--applyset", "configmap/"+name, "--timeout", "2m", dir)
			done <- result{code, out, errs, time.Since(start)}
		}()
		return done
	}
	// created waits until the apply wrote the object.
	created := func(name string, done <-chan result) {
		t.Helper()
		for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
			if out, _ := c.TryKubectl("-n", ns, "get", "certificates.certs.health.example.com", name, "-o", "name"); strings.TrimSpace(out) != "" {
				return
			}
			select {
			case r := <-done:
				t.Fatalf("apply ended before writing %s: exit %d\n%s\n%s", name, r.code, r.out, r.stderr)
			default:
			}
		}
		t.Fatalf("apply did not create certificate %s within 60 s", name)
	}
	setReady := func(name, status, reason string) {
		t.Helper()
		patch := `{"status":{"conditions":[{"type":"Ready","status":"` + status + `","reason":"` + reason + `","message":"set by the test"}]}}`
		c.Kubectl(t, "-n", ns, "patch", "certificates.certs.health.example.com", name, "--subresource=status", "--type=merge", "-p", patch)
	}
	stillWaiting := func(name string, done <-chan result, d time.Duration) {
		t.Helper()
		select {
		case r := <-done:
			t.Fatalf("%s: apply ended while the rule says it is not current: exit %d\n%s\n%s", name, r.code, r.out, r.stderr)
		case <-time.After(d):
		}
	}

	// Waits with no status (the rule cannot evaluate yet, as in Flux),
	// waits with Ready=False Pending, succeeds with Ready=True.
	done := apply("web")
	created("web", done)
	stillWaiting("web", done, 3*time.Second)
	setReady("web", "False", "Pending")
	stillWaiting("web", done, 3*time.Second)
	setReady("web", "True", "Ready")
	select {
	case r := <-done:
		if r.code != 0 {
			t.Fatalf("apply after Ready=True: exit %d\n%s\n%s", r.code, r.out, r.stderr)
		}
		t.Logf("web healthy after %s\n%s", r.took.Round(time.Second), r.out)
	case <-time.After(30 * time.Second):
		t.Fatal("apply did not end within 30 s of Ready=True")
	}

	// Ready=False with reason Failed: failed by the rule, at once.
	done = apply("api")
	created("api", done)
	setReady("api", "False", "Failed")
	start := time.Now()
	select {
	case r := <-done:
		if r.code != 1 {
			t.Fatalf("apply of a failed certificate: exit %d\n%s\n%s", r.code, r.out, r.stderr)
		}
		want := "failed by health rule Certificate.certs.health.example.com (" + cfg + ":3:5)"
		if all := r.out + r.stderr; !strings.Contains(all, want) || !strings.Contains(all, "Ready=False Failed: set by the test") || !strings.Contains(all, "api") {
			t.Errorf("the failure does not name the object, the rule (%s) and the condition:\nstdout:\n%s\nstderr:\n%s", want, r.out, r.stderr)
		}
		t.Logf("api failed after %s\n%s%s", time.Since(start).Round(time.Second), r.out, r.stderr)
	case <-time.After(30 * time.Second):
		t.Fatalf("apply did not fail within 30 s of Ready=False Failed (%s)", time.Since(start))
	}

	// kubeplan status judges the members by the same rules: the failed
	// certificate is Failed by the rule (kstatus alone calls a Ready=False
	// condition in progress), the ready one Current.
	for _, tc := range []struct{ set, status, message string }{
		{"api", "Failed", "failed by health rule Certificate.certs.health.example.com"},
		{"web", "Current", ""},
	} {
		code, out, errs := cli("status", "--config", cfg, "--kubeconfig", kc, "-n", ns, "--applyset", "configmap/"+tc.set, "-o", "json")
		if code != 0 {
			t.Fatalf("status of %s: exit %d\n%s\n%s", tc.set, code, out, errs)
		}
		var st struct {
			Members []struct {
				Ref     struct{ Name string }
				Status  string
				Message string
			}
		}
		if err := json.Unmarshal([]byte(out), &st); err != nil {
			t.Fatalf("status of %s: %v\n%s", tc.set, err, out)
		}
		if len(st.Members) != 1 {
			t.Fatalf("status of %s: want one member\n%s", tc.set, out)
		}
		m := st.Members[0]
		if m.Ref.Name != tc.set || m.Status != tc.status || !strings.Contains(m.Message, tc.message) {
			t.Errorf("status of %s: member %s is %s (%q), want %s by the rule\n%s", tc.set, m.Ref.Name, m.Status, m.Message, tc.status, out)
		}
	}
}

// TestIntegrationHealthRuleFieldTypo: a rule that selects a field the
// kind's CRD (from kubeplan.yaml's crds:) does not have stops apply
// before anything is written, at the field's line and column, naming it
// and the fields the schema has there.
func TestIntegrationHealthRuleFieldTypo(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	typo := strings.Replace(healthConfig, "status.conditions.exists(e, e.type == 'Ready' && e.status == 'True')", "status.condtions.exists(e, e.type == 'Ready' && e.status == 'True')", 1)
	cfgDir := writeManifests(t, map[string]string{"crd.yaml": certCRD, "kubeplan.yaml": typo})
	dir := writeManifests(t, map[string]string{"cert.yaml": certificate("typo")})
	code, out, errs := cli("apply", "--config", filepath.Join(cfgDir, "kubeplan.yaml"), "--kubeconfig", c.AdminKubeconfig(), "-n", ns, "--applyset", "configmap/typo", "--timeout", "1m", dir)
	want := filepath.Join(cfgDir, "kubeplan.yaml") + ":5:21: health rule Certificate.certs.health.example.com: current: status.condtions: no such field in the CRD's schema; status has conditions"
	if code != 1 || !strings.Contains(errs, want) {
		t.Fatalf("exit %d, want 1 with %q\nstdout:\n%s\nstderr:\n%s", code, want, out, errs)
	}
	t.Logf("stderr:\n%s", errs)
	if out, _ := c.TryKubectl("-n", ns, "get", "configmap", "typo", "-o", "name"); strings.TrimSpace(out) != "" {
		t.Errorf("apply wrote the ApplySet parent after refusing the rule: %s", out)
	}
}
