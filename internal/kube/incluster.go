package kube

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"k8s.io/client-go/rest"
)

// ServiceAccountDirEnv names the directory holding the pod's ServiceAccount
// token, ca.crt and namespace. It exists for tests, which run the binary
// as a ServiceAccount outside a pod; in a pod it is left unset.
const ServiceAccountDirEnv = "KUBEPLAN_SERVICEACCOUNT_DIR"

// DefaultServiceAccountDir is where the kubelet mounts them.
const DefaultServiceAccountDir = "/var/run/secrets/kubernetes.io/serviceaccount"

// InPod reports whether the process runs in a pod: the kubelet sets
// KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT.
func InPod() bool {
	return os.Getenv("KUBERNETES_SERVICE_HOST") != "" && os.Getenv("KUBERNETES_SERVICE_PORT") != ""
}

// InCluster connects as the pod's ServiceAccount, as rest.InClusterConfig
// does, but reads the token, ca.crt and namespace from
// $KUBEPLAN_SERVICEACCOUNT_DIR when set. The token is read from its file
// again as the kubelet rotates it. It makes no request.
func InCluster() (*Client, error) {
	host, port := os.Getenv("KUBERNETES_SERVICE_HOST"), os.Getenv("KUBERNETES_SERVICE_PORT")
	if host == "" || port == "" {
		return nil, errors.New("not in a pod: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not set; pass --kubeconfig")
	}
	dir := os.Getenv(ServiceAccountDirEnv)
	if dir == "" {
		dir = DefaultServiceAccountDir
	}
	tokenFile := filepath.Join(dir, "token")
	if _, err := os.Stat(tokenFile); err != nil {
		return nil, fmt.Errorf("in-cluster config: the ServiceAccount token: %w", err)
	}
	cfg := &rest.Config{
		Host:            "https://" + net.JoinHostPort(host, port),
		BearerTokenFile: tokenFile,
		TLSClientConfig: rest.TLSClientConfig{CAFile: filepath.Join(dir, "ca.crt")},
		Timeout:         requestTimeout(),
	}
	ns := "default"
	if b, err := os.ReadFile(filepath.Join(dir, "namespace")); err == nil && strings.TrimSpace(string(b)) != "" {
		ns = strings.TrimSpace(string(b))
	}
	return NewForConfig(cfg, ns)
}

// requestTimeout is DefaultRequestTimeout as a duration.
func requestTimeout() time.Duration {
	d, _ := time.ParseDuration(DefaultRequestTimeout)
	return d
}
