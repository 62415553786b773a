package faultproxy

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"k8s.io/client-go/tools/clientcmd"
)

// ServerAddr is the host:port of the API server the current context of
// the kubeconfig at path names.
func ServerAddr(path string) (string, error) {
	cfg, err := clientcmd.LoadFromFile(path)
	if err != nil {
		return "", err
	}
	ctx, ok := cfg.Contexts[cfg.CurrentContext]
	if !ok {
		return "", fmt.Errorf("%s: no current context %q", path, cfg.CurrentContext)
	}
	cl, ok := cfg.Clusters[ctx.Cluster]
	if !ok {
		return "", fmt.Errorf("%s: context %q names no cluster %q", path, cfg.CurrentContext, ctx.Cluster)
	}
	u, err := url.Parse(cl.Server)
	if err != nil {
		return "", fmt.Errorf("%s: server %q: %w", path, cl.Server, err)
	}
	if u.Port() == "" {
		port := "443"
		if u.Scheme == "http" {
			port = "80"
		}
		return net.JoinHostPort(u.Hostname(), port), nil
	}
	return u.Host, nil
}

// ForKubeconfig starts a proxy (closed when t ends) to the API server of
// the kubeconfig at path.
func ForKubeconfig(t testing.TB, path string) *Proxy {
	t.Helper()
	addr, err := ServerAddr(path)
	if err != nil {
		t.Fatalf("faultproxy: %v", err)
	}
	return Start(t, addr)
}

// KubeconfigVia writes a copy of the kubeconfig at path (in t.TempDir())
// whose clusters' server URLs name the proxy instead, and returns its
// path. Credentials and the CA stay as they are; certificate files named
// by a relative path are made absolute, since the copy lives elsewhere.
func KubeconfigVia(t testing.TB, path string, p *Proxy) string {
	t.Helper()
	out, err := kubeconfigVia(path, p.Addr(), t.TempDir())
	if err != nil {
		t.Fatalf("faultproxy: %v", err)
	}
	return out
}

func kubeconfigVia(path, addr, dir string) (string, error) {
	cfg, err := clientcmd.LoadFromFile(path)
	if err != nil {
		return "", err
	}
	if err := clientcmd.ResolveLocalPaths(cfg); err != nil {
		return "", err
	}
	for name, cl := range cfg.Clusters {
		u, err := url.Parse(cl.Server)
		if err != nil {
			return "", fmt.Errorf("%s: cluster %s: server %q: %w", path, name, cl.Server, err)
		}
		if cl.TLSServerName == "" && u.Hostname() != "127.0.0.1" {
			// The certificate names the original host, not 127.0.0.1.
			cl.TLSServerName = u.Hostname()
		}
		u.Host = addr
		cl.Server = u.String()
	}
	out := filepath.Join(dir, "via-"+filepath.Base(path))
	if err := clientcmd.WriteToFile(*cfg, out); err != nil {
		return "", err
	}
	if err := os.Chmod(out, 0o600); err != nil {
		return "", err
	}
	return out, nil
}
