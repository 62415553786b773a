package kube

import (
	"context"

	"k8s.io/cli-runtime/pkg/genericclioptions"

	"github.com/kubeplan/kubeplan/internal/applyset"
)

// ConnectSet connects (one request: a missing kubeconfig or an unreachable
// server is one clear error, see Connect and Client.Ping) and parses
// applySet, the --applyset flag, against the client's namespace.
func ConnectSet(ctx context.Context, f *genericclioptions.ConfigFlags, applySet string) (*Client, applyset.Parent, error) {
	c, err := Connect(f)
	if err != nil {
		return nil, applyset.Parent{}, err
	}
	if err := c.Ping(ctx); err != nil {
		return nil, applyset.Parent{}, err
	}
	as, err := applyset.ParseParentFlag(applySet, c.Namespace)
	return c, as, err
}
