package kube

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"

	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/client-go/tools/clientcmd"
)

// pingTimeout bounds the first request, which tells an unreachable cluster
// from a slow one.
const pingTimeout = 15 * time.Second

// Connect builds a client from kubectl's flags, refusing a missing
// kubeconfig with one clear error. Before client-go reads a kubeconfig
// file, CheckKubeconfigs checks it against checkouts (the repositories
// being read). It makes no request: call Ping before the first one, so
// that an unreachable server is one clear error too.
func Connect(f *genericclioptions.ConfigFlags, checkouts ...string) (*Client, error) {
	if err := CheckKubeconfigs(f, checkouts...); err != nil {
		return nil, err
	}
	if err := haveKubeconfig(f); err != nil {
		return nil, err
	}
	return New(f)
}

// haveKubeconfig refuses to fall back to client-go's default server
// (http://localhost:8080) when no kubeconfig was found anywhere.
func haveKubeconfig(f *genericclioptions.ConfigFlags) error {
	if deref(f.APIServer) != "" || os.Getenv("KUBERNETES_SERVICE_HOST") != "" {
		return nil // a server flag, or in a pod: client-go's in-cluster config
	}
	raw, err := f.ToRawKubeConfigLoader().RawConfig()
	if err != nil {
		return fmt.Errorf("loading kubeconfig: %w", err)
	}
	if len(raw.Clusters) > 0 {
		return nil
	}
	if p := deref(f.KubeConfig); p != "" {
		return fmt.Errorf("the kubeconfig %s names no cluster", p)
	}
	where := strings.Join(clientcmd.NewDefaultClientConfigLoadingRules().GetLoadingPrecedence(), ", ")
	if os.Getenv(clientcmd.RecommendedConfigPathEnvVar) == "" {
		where += " ($KUBECONFIG is not set)"
	} else {
		where += " (from $KUBECONFIG)"
	}
	return fmt.Errorf("no kubeconfig found: looked in %s; pass --kubeconfig FILE or set KUBECONFIG", where)
}

// Ping makes one request to the server and turns a failure into one line
// naming the server.
func (c *Client) Ping(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, pingTimeout)
	defer cancel()
	_, err := c.Discovery.RESTClient().Get().AbsPath("/version").Do(ctx).Raw()
	if err == nil {
		return nil
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return &UnreachableError{Server: c.Config.Host, Err: err}
}

// UnreachableError says the first request to the server failed.
type UnreachableError struct {
	Server string
	Err    error
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("cannot reach the cluster at %s: %v", e.Server, e.Err)
}

func (e *UnreachableError) Unwrap() error { return e.Err }

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
