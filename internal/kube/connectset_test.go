package kube

import (
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
)

func kubeconfigFor(t *testing.T, server string) *string {
	t.Helper()
	kc := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(kc, []byte(`apiVersion: v1
kind: Config
current-context: c
clusters: [{name: c, cluster: {server: "`+server+`"}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: c, context: {cluster: c, user: u, namespace: shop}}]
`), 0o600); err != nil {
		t.Fatal(err)
	}
	return &kc
}

// ConnectSet asks the server once before anything else, and parses
// --applyset against the kubeconfig's namespace.
func TestConnectSet(t *testing.T) {
	var asked atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		if r.URL.Path != "/version" {
			t.Errorf("request %s, want /version", r.URL.Path)
		}
		_, _ = w.Write([]byte(`{"major":"1","minor":"37","gitVersion":"v1.37.0"}`))
	}))
	defer srv.Close()
	f := Flags()
	f.KubeConfig = kubeconfigFor(t, srv.URL)

	c, as, err := ConnectSet(t.Context(), f, "configmap/gitops")
	if err != nil || c == nil || as.Kind != "ConfigMap" || as.Name != "gitops" || as.Namespace != "shop" || asked.Load() != 1 {
		t.Fatalf("reachable: %v, %+v, %d requests", err, as, asked.Load())
	}
	if c, _, err := ConnectSet(t.Context(), f, "deployment/gitops"); err == nil || c == nil {
		t.Errorf("a Deployment as parent: %v", err)
	}
}

// A server that does not answer is one error naming it; a kubeconfig
// that is not there is refused before any request.
func TestConnectSetUnreachable(t *testing.T) {
	t.Setenv("KUBERNETES_SERVICE_HOST", "") // not in a pod: no in-cluster fallback
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	f := Flags()
	f.KubeConfig = kubeconfigFor(t, "http://"+addr)
	var ue *UnreachableError
	if _, _, err := ConnectSet(t.Context(), f, "configmap/gitops"); !errors.As(err, &ue) || ue.Server != "http://"+addr {
		t.Errorf("unreachable: %v", err)
	}
	missing := filepath.Join(t.TempDir(), "missing")
	f.KubeConfig = &missing
	if c, _, err := ConnectSet(t.Context(), f, "configmap/gitops"); err == nil || c != nil {
		t.Errorf("missing kubeconfig: %v", err)
	}
}
