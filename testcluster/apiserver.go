package main

import (
	"context"
	"fmt"
	"net"
	"path/filepath"

	"github.com/spf13/pflag"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	"k8s.io/client-go/rest"
	apiserverapp "k8s.io/kubernetes/cmd/kube-apiserver/app"
	apiserveroptions "k8s.io/kubernetes/cmd/kube-apiserver/app/options"
)

const (
	serviceCIDR = "10.0.0.0/24"
	serviceIP   = "10.0.0.1" // the first address of serviceCIDR: the kubernetes Service
	saIssuer    = "https://kubernetes.default.svc.cluster.local"
)

// apiserverArgs is the smallest flag set that gives a conformant-looking API
// server on loopback: client certificates and service-account tokens for
// authentication, RBAC for authorization.
func apiserverArgs(dir, etcdURL string) []string {
	p := func(name string) string { return filepath.Join(dir, name) }
	return []string{
		"--etcd-servers=" + etcdURL,
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		// A loopback advertise address cannot be reconciled into the kubernetes Endpoints.
		"--endpoint-reconciler-type=none",
		"--tls-cert-file=" + p(servingCert),
		"--tls-private-key-file=" + p(servingKey),
		"--client-ca-file=" + p(caCertFile),
		"--service-account-issuer=" + saIssuer,
		"--service-account-key-file=" + p(saPubFile),
		"--service-account-signing-key-file=" + p(saKeyFile),
		"--service-cluster-ip-range=" + serviceCIDR,
		// Container logs (pods/log) come from the simulated node's kubelet API at its
		// InternalIP: the API server presents a client certificate and verifies the
		// node's serving certificate against the cluster's CA.
		"--kubelet-preferred-address-types=InternalIP",
		"--kubelet-client-certificate=" + p(kubeletClientCert),
		"--kubelet-client-key=" + p(kubeletClientKey),
		"--kubelet-certificate-authority=" + p(caCertFile),
		"--authorization-mode=RBAC",
		"--allow-privileged=true",
		"--enable-priority-and-fairness=false",
		"--profiling=false",
	}
}

// runAPIServer runs kube-apiserver in this process, serving on listener, until ctx ends.
// It returns when the server has shut down.
func runAPIServer(ctx context.Context, args []string, listener net.Listener) error {
	s := apiserveroptions.NewServerRunOptions()
	fs := pflag.NewFlagSet("kube-apiserver", pflag.ContinueOnError)
	for _, f := range s.Flags().FlagSets {
		fs.AddFlagSet(f)
	}
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("kube-apiserver flags: %w", err)
	}
	s.SecureServing.Listener = listener
	s.SecureServing.BindPort = listener.Addr().(*net.TCPAddr).Port
	if err := s.GenericServerRunOptions.ComponentGlobalsRegistry.Set(); err != nil {
		return fmt.Errorf("kube-apiserver feature gates: %w", err)
	}
	// The apiserver's loopback clients should not log warnings about themselves.
	rest.SetDefaultWarningHandler(rest.NoWarnings{})

	completed, err := s.Complete(ctx)
	if err != nil {
		return fmt.Errorf("kube-apiserver options: %w", err)
	}
	if errs := completed.Validate(); len(errs) != 0 {
		return fmt.Errorf("kube-apiserver options: %w", utilerrors.NewAggregate(errs))
	}
	return apiserverapp.Run(ctx, completed)
}
