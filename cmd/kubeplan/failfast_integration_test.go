package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

// An image that cannot be pulled (the simulated kubelet never pulls tag
// doesnotexist: ImagePullBackOff) fails apply well before --timeout, and
// the text output says which pod and container, the reason and the
// events, under the Deployment's line, for the narrow edit identity.
func TestIntegrationApplyFailsFast(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	kc := c.Narrow(t, "failfast", ns)
	// A Warning event about the Deployment, as a controller would record
	// it (the simulated node records none): the diagnosis lists it.
	event := filepath.Join(t.TempDir(), "event.yaml")
	if err := os.WriteFile(event, []byte("apiVersion: events.k8s.io/v1\nkind: Event\nmetadata:\n  name: web.1\n  namespace: "+ns+
		"\ntype: Warning\nreason: FailedCreate\nnote: quota exceeded for the test\naction: Create\nreportingController: test\nreportingInstance: test\neventTime: \"2026-12-02T01:00:00.000000Z\"\nregarding: {apiVersion: apps/v1, kind: Deployment, name: web, namespace: "+ns+"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.Kubectl(t, "apply", "-f", event)
	dir, stdout, stderr := applyFailing(t, kc, ns, failingApply{applyset: "failfast", grace: 10 * time.Second,
		files: map[string]string{"web.yaml": testkube.Deployment("web", "registry.example/web:doesnotexist", 2)}})
	wantAll(t, "stdout", stdout,
		"deployment.apps/web created\n  at ",
		"web.yaml:1:1\n",
		"  2 pods: container main: ImagePullBackOff: Back-off pulling image \"registry.example/web:doesnotexist\"",
		"    pod web-",
		"  events:\n    Deployment/web FailedCreate: quota exceeded for the test\n",
	)
	wantNamed(t, stderr, "deployment.apps/web", "ImagePullBackOff")
	// The events it could read: the edit role lists events.k8s.io events,
	// so no permission is said to be missing.
	if strings.Contains(stdout, "missing permission") {
		t.Errorf("a permission is said to be missing:\n%s", stdout)
	}

	// --fail-fast=false waits as before: until the timeout.
	ns2 := c.Namespace(t)
	kc2 := c.Narrow(t, "failfast", ns2)
	start := time.Now()
	code, stdout, stderr := cli("apply", "--kubeconfig", kc2, "-n", ns2, "--applyset", "configmap/failfast2", "--fail-fast=false", "--timeout", "20s", dir)
	if took := time.Since(start); code != 1 || took < 18*time.Second || !strings.Contains(stderr, "timed out") {
		t.Errorf("--fail-fast=false: exit %d after %s\nstdout:\n%s\nstderr:\n%s", code, took, stdout, stderr)
	}
}
