package kube

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// InCluster reads the ServiceAccount's files from
// $KUBEPLAN_SERVICEACCOUNT_DIR and the server from the pod's environment.
func TestInCluster(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"token": "tok", "ca.crt": "", "namespace": "shop\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv(ServiceAccountDirEnv, dir)
	t.Setenv("KUBERNETES_SERVICE_HOST", "10.0.0.1")
	t.Setenv("KUBERNETES_SERVICE_PORT", "443")
	if !InPod() {
		t.Fatal("InPod() = false")
	}
	c, err := InCluster()
	if err != nil {
		t.Fatal(err)
	}
	if c.Config.Host != "https://10.0.0.1:443" || c.Config.BearerTokenFile != filepath.Join(dir, "token") ||
		c.Config.TLSClientConfig.CAFile != filepath.Join(dir, "ca.crt") || c.Namespace != "shop" || c.Config.Timeout == 0 {
		t.Errorf("config %+v, namespace %q", c.Config, c.Namespace)
	}

	t.Setenv(ServiceAccountDirEnv, filepath.Join(dir, "missing"))
	if _, err := InCluster(); err == nil || !strings.Contains(err.Error(), "token") {
		t.Errorf("without a token: %v", err)
	}
	t.Setenv("KUBERNETES_SERVICE_HOST", "")
	if _, err := InCluster(); err == nil || !strings.Contains(err.Error(), "not in a pod") {
		t.Errorf("outside a pod: %v", err)
	}
}
