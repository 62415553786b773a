// Command testcluster runs a real Kubernetes control plane for tests and demos:
// kube-apiserver, embedded etcd and kube-controller-manager in one process, plus
// a simulated node that schedules pods and reports them running, or failing the
// way a real node does (image tags doesnotexist, crashloop, oomkilled; requests
// above its allocatable; missing Secrets), with the kubelet's and the
// scheduler's events, and serves container logs to the API server's pods/log.
// README.md documents these conventions. Nothing is downloaded: everything is
// built from the Kubernetes Go modules.
//
//	testcluster start --dir DIR      run in the foreground; prints "ready DIR/admin.kubeconfig"
//	testcluster user --dir DIR --name NAME [--group GROUP]...
//	                                 write DIR/NAME.kubeconfig for a narrow identity
//
// Build it with `make testcluster`, which sets the Kubernetes version reported in discovery.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"k8s.io/component-base/version"
)

const usage = `testcluster: a real kube-apiserver, etcd and controllers in one process, for tests.

Usage:
  testcluster start --dir DIR [--timeout 90s] [--verbose] [--v N] [--stop-on-stdin-eof]
      Make fresh PKI and etcd data in DIR, run the cluster in the foreground, write
      DIR/admin.kubeconfig (group system:masters) when it is ready, then print
      "ready DIR/admin.kubeconfig". Logs go to DIR/testcluster.log and DIR/etcd.log.
      SIGINT or SIGTERM stops it.
  testcluster user --dir DIR --name NAME [--group GROUP]...
      Write DIR/NAME.kubeconfig with a client certificate (CN=NAME, O=GROUP...)
      signed by the cluster's CA, for the server in DIR/admin.kubeconfig.
  testcluster version
      Print the Kubernetes version this binary serves.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "start":
		var o *startOptions
		if o, err = parseStart(args[1:], stderr); err == nil {
			warnUnversioned(stderr)
			err = runStart(o, stdout)
		}
	case "user":
		var o *userOptions
		if o, err = parseUser(args[1:], stderr); err == nil {
			err = runUser(o, stdout)
		}
	case "version":
		fmt.Fprintln(stdout, version.Get().GitVersion)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
	default:
		fmt.Fprintf(stderr, "testcluster: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
	var usage usageError
	switch {
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &usage):
		fmt.Fprintf(stderr, "testcluster %s: %v (see testcluster help)\n", args[0], usage.err)
		return 2
	case err != nil:
		fmt.Fprintf(stderr, "testcluster %s: %v\n", args[0], err)
		return 1
	}
	return 0
}

// usageError is a mistake in the command line: exit code 2.
type usageError struct{ err error }

func (u usageError) Error() string { return u.err.Error() }
func (u usageError) Unwrap() error { return u.err }

// warnUnversioned says so when the binary was built without the version ldflags
// (plain `go build`): discovery then reports v0.0.0-master.
func warnUnversioned(stderr io.Writer) {
	want := ""
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, m := range info.Deps {
			if m.Path == "k8s.io/kubernetes" {
				want = m.Version
			}
		}
	}
	if got := version.Get().GitVersion; want != "" && got != want {
		fmt.Fprintf(stderr, "testcluster: warning: built without version ldflags, serving %s instead of %s; build with `make testcluster`\n", got, want)
	}
}
