package serve

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/notify"
	"github.com/kubeplan/kubeplan/project"
)

// serve connects a project naming a cluster only through its own map
// (--clusters): an unmapped name is refused before anything is read or
// run, in a pod as outside one; a project naming none uses the pod's
// ServiceAccount.
func TestServeConnectorClusters(t *testing.T) {
	dir := t.TempDir()
	canary := filepath.Join(dir, "canary")
	kc := filepath.Join(dir, "runner.kubeconfig")
	if err := os.WriteFile(kc, []byte(`apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
users:
- {name: dev, user: {token: t}}
- {name: admin, user: {exec: {apiVersion: client.authentication.k8s.io/v1, command: sh, interactiveMode: Never, args: ["-c", "echo ran > `+canary+`"]}}}
contexts:
- {name: dev, context: {cluster: c, user: dev}}
- {name: admin, context: {cluster: c, user: admin}}
current-context: dev
`), 0o600); err != nil {
		t.Fatal(err)
	}
	sa := filepath.Join(dir, "sa")
	for name, content := range map[string]string{"token": "sa-token", "ca.crt": "", "namespace": "kubeplan"} {
		if err := os.MkdirAll(sa, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(sa, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("KUBECONFIG", kc)
	t.Setenv("KUBERNETES_SERVICE_HOST", "127.0.0.1")
	t.Setenv("KUBERNETES_SERVICE_PORT", "1")
	t.Setenv(kube.ServiceAccountDirEnv, sa)

	clusters, err := kube.ParseClusters("", []string{"dev"})
	if err != nil {
		t.Fatal(err)
	}
	connect := Connector(kube.Flags(), clusters)
	admin := project.Project{Name: "app", ClusterName: "admin", ClusterAt: "kubeplan.yaml:4:14"}
	_, name, err := connect(admin)
	var nm *kube.NotMappedError
	if !errors.As(err, &nm) || name != "admin" || nm.At != "kubeplan.yaml:4:14" {
		t.Errorf("unmapped admin: %q %v", name, err)
	}
	if _, err := os.Stat(canary); err == nil {
		t.Fatal("the admin context's plugin ran")
	}
	c, name, err := connect(project.Project{Name: "app", ClusterName: "dev"})
	if err != nil || name != "dev" || c.Config.BearerToken != "t" {
		t.Errorf("mapped dev: %q %v", name, err)
	}
	c, name, err = connect(project.Project{Name: "app"})
	if err != nil || name != "" || c.Config.BearerTokenFile != filepath.Join(sa, "token") || c.Namespace != "kubeplan" {
		t.Errorf("no cluster name, in a pod: %q %v", name, err)
	}
	// without any map, only projects naming no cluster run
	connect = Connector(kube.Flags(), kube.Clusters{})
	if _, _, err := connect(project.Project{Name: "app", ClusterName: "dev"}); !errors.As(err, &nm) {
		t.Errorf("no map, dev: %v", err)
	}
	// the map reaching the admin context: now the plugin may run (the
	// refusal above is the map's, not an accident of the kubeconfig)
	clusters["admin"] = kube.Target{Context: "admin"}
	c, _, err = Connector(kube.Flags(), clusters)(admin)
	if err != nil {
		t.Fatal(err)
	}
	_ = c.Ping(t.Context())
	if _, err := os.Stat(canary); err != nil {
		t.Errorf("mapped admin: the plugin did not run: %v", err)
	}
}

// The notifier keeps its state in the pod's ConfigMap kubeplan-notify
// only in a pod with no kubeconfig on the command line; elsewhere in
// memory.
func TestPodState(t *testing.T) {
	t.Setenv("KUBERNETES_SERVICE_HOST", "")
	if PodState("") != nil {
		t.Error("outside a pod: a state")
	}
	sa := t.TempDir()
	for name, content := range map[string]string{"token": "sa-token", "ca.crt": "", "namespace": "kubeplan-system"} {
		if err := os.WriteFile(filepath.Join(sa, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("KUBERNETES_SERVICE_HOST", "127.0.0.1")
	t.Setenv("KUBERNETES_SERVICE_PORT", "1")
	t.Setenv(kube.ServiceAccountDirEnv, sa)
	if PodState("/etc/kubeplan/kubeconfig") != nil {
		t.Error("in a pod with --kubeconfig: a state")
	}
	state := PodState("")
	if state == nil {
		t.Fatal("in a pod: no state")
	}
	st, err := state()
	cm, ok := st.(notify.ConfigMapState)
	if err != nil || !ok || cm.Namespace != "kubeplan-system" || cm.Name != "kubeplan-notify" || cm.Client == nil {
		t.Errorf("in a pod: %#v, %v", st, err)
	}
	t.Setenv(kube.ServiceAccountDirEnv, filepath.Join(sa, "missing"))
	if _, err := state(); err == nil {
		t.Error("in a pod without a ServiceAccount token: no error")
	}
}
