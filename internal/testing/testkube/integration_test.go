package testkube

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestMain(m *testing.M) { Main(m) }

const wantVersion = "v1.37.2"

func skipShort(t *testing.T) { Integration(t) }

func TestIntegrationCluster(t *testing.T) {
	skipShort(t)
	c := Shared(t)

	t.Run("version", func(t *testing.T) {
		var v struct {
			ServerVersion struct{ GitVersion string } `json:"serverVersion"`
		}
		if err := json.Unmarshal([]byte(c.Kubectl(t, "version", "-o", "json")), &v); err != nil {
			t.Fatal(err)
		}
		if v.ServerVersion.GitVersion != wantVersion {
			t.Errorf("server version %q, want %q", v.ServerVersion.GitVersion, wantVersion)
		}
	})

	t.Run("narrow identity", func(t *testing.T) {
		kc := c.User(t, "gitops-reconciler")
		c.Kubectl(t, "create", "namespace", "store")
		c.Kubectl(t, "-n", "store", "create", "rolebinding", "gitops-reconciler", "--clusterrole=edit", "--user=gitops-reconciler")
		// The RBAC authorizer sees the new binding a moment later (it reads from a watch cache).
		canI := func(args ...string) string {
			// can-i exits 1 for "no"; its answer is on stdout either way.
			out, _ := c.TryKubectl(append([]string{"--kubeconfig", kc, "auth", "can-i"}, args...)...)
			return strings.TrimSpace(out)
		}
		for deadline := time.Now().Add(5 * time.Second); canI("create", "deployments", "-n", "store") != "yes" && time.Now().Before(deadline); {
			time.Sleep(100 * time.Millisecond)
		}
		for _, tc := range []struct {
			args []string
			want string
		}{
			{[]string{"create", "deployments", "-n", "store"}, "yes"},
			{[]string{"create", "deployments", "-n", "default"}, "no"},
			{[]string{"get", "secrets", "-n", "store"}, "yes"},
			{[]string{"create", "namespaces"}, "no"},
		} {
			if got := canI(tc.args...); got != tc.want {
				t.Errorf("can-i %s = %q, want %q", strings.Join(tc.args, " "), got, tc.want)
			}
		}
	})

	t.Run("narrow helper", func(t *testing.T) {
		ns := c.Namespace(t)
		kc := c.Narrow(t, "ci", ns)
		for _, tc := range []struct{ ns, want string }{{ns, "yes"}, {"default", "no"}} {
			out, _ := c.TryKubectl("--kubeconfig", kc, "auth", "can-i", "create", "deployments", "-n", tc.ns)
			if got := strings.TrimSpace(out); got != tc.want {
				t.Errorf("can-i create deployments -n %s = %q, want %q", tc.ns, got, tc.want)
			}
		}
	})

	t.Run("deployment becomes available", func(t *testing.T) {
		ns := c.Namespace(t)
		c.Kubectl(t, "-n", ns, "apply", "-f", writeManifest(t, Deployment("web", "nginx:1.27", 3)))
		c.Kubectl(t, "-n", ns, "rollout", "status", "deployment/web", "--timeout=60s")
		if got := c.Kubectl(t, "-n", ns, "get", "deployment", "web", "-o", "jsonpath={.status.availableReplicas}"); got != "3" {
			t.Errorf("available replicas %q, want 3", got)
		}
	})

	t.Run("bad image stalls", func(t *testing.T) {
		ns := c.Namespace(t)
		c.Kubectl(t, "-n", ns, "apply", "-f", writeManifest(t, Deployment("bad", "nginx:doesnotexist", 1)))
		reason := ""
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
			reason = c.Kubectl(t, "-n", ns, "get", "pods", "-l", "app=bad", "-o", "jsonpath={.items[*].status.containerStatuses[*].state.waiting.reason}")
			if reason == "ImagePullBackOff" {
				break
			}
		}
		if reason != "ImagePullBackOff" {
			t.Fatalf("pod waiting reason %q, want ImagePullBackOff", reason)
		}
		available := c.Kubectl(t, "-n", ns, "get", "deployment", "bad", "-o", `jsonpath={.status.conditions[?(@.type=="Available")].status}`)
		if available != "False" {
			t.Errorf("deployment Available condition %q, want False", available)
		}
	})

	t.Run("job completes", func(t *testing.T) {
		ns := c.Namespace(t)
		c.Kubectl(t, "-n", ns, "create", "job", "once", "--image=busybox:1.36", "--", "true")
		c.Kubectl(t, "-n", ns, "wait", "--for=condition=complete", "job/once", "--timeout=60s")
	})

	t.Run("second cluster beside the first", func(t *testing.T) {
		c2 := Start(t)
		if c2.AdminKubeconfig() == c.AdminKubeconfig() {
			t.Fatal("both clusters have the same kubeconfig")
		}
		for _, cl := range []*Cluster{c, c2} {
			if got := cl.Kubectl(t, "get", "--raw", "/readyz"); got != "ok" {
				t.Errorf("%s: readyz %q", cl.Dir(), got)
			}
		}
		// They are separate: a namespace made in one is not in the other.
		ns := c2.Namespace(t)
		if _, err := c.TryKubectl("get", "namespace", ns); err == nil {
			t.Errorf("namespace %s of the second cluster exists in the first", ns)
		}
	})
}

func TestIntegrationStopLeavesNoProcess(t *testing.T) {
	skipShort(t)
	requireBinary(t)
	c, err := Launch()
	if err != nil {
		t.Fatal(err)
	}
	pid, dir := c.PID(), c.Dir()
	if err := syscall.Kill(pid, 0); err != nil {
		t.Fatalf("testcluster %d not running after Launch: %v", pid, err)
	}
	if err := c.Stop(); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("process %d still exists after Stop (kill -0: %v)", pid, err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("cluster directory %s left behind (%v)", dir, err)
	}
	if err := c.Stop(); err != nil {
		t.Errorf("second Stop: %v", err)
	}
}

func writeManifest(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "manifest.yaml")
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}
