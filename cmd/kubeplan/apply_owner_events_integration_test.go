package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

// A Deployment whose pods a ResourceQuota refuses has no pod to diagnose:
// the diagnosis of the apply (the narrow edit identity) lists the
// FailedCreate events the real ReplicaSet controller records on the
// Deployment's ReplicaSet, saying why, under the Deployment's line, once
// its progress deadline is exceeded: one line with a count, although each
// retry names another pod.
func TestIntegrationApplyDiagnosisReplicaSetEvents(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	kc := c.Narrow(t, "quota", ns)
	dir := t.TempDir()
	quota := filepath.Join(dir, "quota.yaml")
	if err := os.WriteFile(quota, []byte("apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: no-pods, namespace: "+ns+"}\nspec: {hard: {pods: \"0\"}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.Kubectl(t, "apply", "-f", quota) // as the cluster's admin: edit may not write quotas
	manifest := strings.Replace(testkube.Deployment("web", "registry.example/web:1.0", 1), "spec:\n", "spec:\n  progressDeadlineSeconds: 10\n", 1)
	if !strings.Contains(manifest, "progressDeadlineSeconds: 10") {
		t.Fatalf("no spec in the Deployment:\n%s", manifest)
	}
	app := filepath.Join(dir, "app")
	if err := os.Mkdir(app, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(app, "web.yaml"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	code, stdout, stderr := cli("apply", "--kubeconfig", kc, "-n", ns, "--applyset", "configmap/quota", "--timeout", "5m", app)
	took := time.Since(start)
	if code != 1 || took > 90*time.Second {
		t.Fatalf("exit %d after %s (want 1 once the 10 s progress deadline passed)\nstdout:\n%s\nstderr:\n%s", code, took, stdout, stderr)
	}
	t.Logf("failed after %s\n%s", took.Round(time.Second), stdout)
	for _, want := range []string{
		"deployment.apps/web created\n  at ",
		"  ProgressDeadlineExceeded",
		"  events:\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	// The controller's retries, each naming the pod it tried to create,
	// are one line with their count.
	line := regexp.MustCompile(`(?m)^    ReplicaSet/(web-[a-z0-9]+) FailedCreate \(x\d+\): Error creating: pods "(web-[a-z0-9]+)-\*" is forbidden: exceeded quota: no-pods, `)
	m := line.FindStringSubmatch(stdout)
	if m == nil || m[1] != m[2] || strings.Count(stdout, "FailedCreate") != 1 {
		t.Errorf("the ReplicaSet's FailedCreate events are not one line with a count:\n%s", stdout)
	}
	if strings.Contains(stdout, "missing permission") {
		t.Errorf("a permission is said to be missing:\n%s", stdout)
	}
}
