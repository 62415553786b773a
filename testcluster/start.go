package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"
)

const (
	lockFileName    = "testcluster.lock"
	shutdownTimeout = 20 * time.Second
)

type startOptions struct {
	dir       string
	timeout   time.Duration
	verbosity int
	verbose   bool
	stdinEOF  bool
	auditLog  bool
}

func parseStart(args []string, stderr io.Writer) (*startOptions, error) {
	o := &startOptions{}
	fs := flag.NewFlagSet("testcluster start", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.dir, "dir", "", "directory for the PKI, etcd data, kubeconfigs and logs (required; created if missing)")
	fs.DurationVar(&o.timeout, "timeout", 90*time.Second, "give up if the cluster is not ready within this time")
	fs.IntVar(&o.verbosity, "v", 0, "log verbosity of the Kubernetes components")
	fs.BoolVar(&o.verbose, "verbose", false, "copy the logs to stderr too (they always go to DIR/"+logFileName+")")
	fs.BoolVar(&o.auditLog, "audit-log", auditDefault(), "write the API server's audit log of every write (create, update, patch, delete; Metadata level) to DIR/"+auditLogFile+" (default from $"+auditEnv+"=1)")
	fs.BoolVar(&o.stdinEOF, "stop-on-stdin-eof", false, "also stop when stdin is closed (so a parent that dies takes the cluster with it)")
	if err := fs.Parse(args); err != nil {
		return nil, usageError{err}
	}
	if fs.NArg() > 0 {
		return nil, usageError{fmt.Errorf("unexpected arguments: %q", fs.Args())}
	}
	if o.dir == "" {
		return nil, usageError{errors.New("--dir is required")}
	}
	abs, err := filepath.Abs(o.dir)
	if err != nil {
		return nil, err
	}
	o.dir = abs
	return o, nil
}

// runStart runs a cluster in the foreground until SIGINT or SIGTERM.
func runStart(o *startOptions, stdout io.Writer) error {
	if err := os.MkdirAll(o.dir, 0o700); err != nil {
		return err
	}
	unlock, err := lockDir(o.dir)
	if err != nil {
		return err
	}
	defer unlock()
	// A reader waiting for admin.kubeconfig must never find one from an earlier run.
	adminPath := filepath.Join(o.dir, adminKubeconfig)
	if err := os.Remove(adminPath); err != nil && !os.IsNotExist(err) {
		return err
	}
	logs, err := setupLogging(o.dir, o.verbosity, o.verbose)
	if err != nil {
		return fmt.Errorf("logging: %w", err)
	}
	defer logs.Close()
	defer klog.Flush()

	signals, stopSignals := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stopSignals()
	// A second signal kills the process the default way.
	context.AfterFunc(signals, stopSignals)
	if o.stdinEOF {
		var stdinClosed context.CancelCauseFunc
		signals, stdinClosed = context.WithCancelCause(signals)
		go func() {
			_, _ = io.Copy(io.Discard, os.Stdin)
			stdinClosed(errors.New("stdin closed"))
		}()
	}

	c, err := bootCluster(signals, o)
	if c != nil {
		defer c.shutdown()
	}
	if err != nil && signals.Err() != nil {
		// Asked to stop while starting: that is a clean stop, not a failure.
		klog.InfoS("testcluster: stopped while starting", "cause", context.Cause(signals))
		return nil
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "ready %s\n", adminPath)
	klog.InfoS("testcluster ready", "kubeconfig", adminPath, "server", c.server)

	select {
	case <-signals.Done():
		klog.InfoS("testcluster: shutting down", "cause", context.Cause(signals))
		return nil
	case err := <-c.failed:
		return err
	}
}

// cluster is a running testcluster.
type cluster struct {
	dir     string
	server  string
	failed  chan error
	etcd    interface{ Close() }
	parts   []*component // in start order; stopped in reverse
	api     *component
	client  kubernetes.Interface
	started time.Time
}

// bootCluster starts etcd, kube-apiserver, kube-controller-manager and the
// simulated node, and writes DIR/admin.kubeconfig once all of them work.
// A non-nil cluster must be shut down even when err is not nil.
func bootCluster(ctx context.Context, o *startOptions) (*cluster, error) {
	c := &cluster{dir: o.dir, failed: make(chan error, 8), started: time.Now()}
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()

	ca, err := writePKI(o.dir)
	if err != nil {
		return nil, fmt.Errorf("PKI: %w", err)
	}
	etcd, etcdURL, err := startEtcd(o.dir)
	if err != nil {
		return nil, err
	}
	c.etcd = etcd

	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return c, fmt.Errorf("listen: %w", err)
	}
	c.server = "https://" + listener.Addr().String()
	controllersPath := filepath.Join(o.dir, controllersConfig)
	if err := writeKubeconfig(controllersPath, c.server, ca, "system:kube-controller-manager", []string{"system:masters"}); err != nil {
		return c, err
	}
	// The admin kubeconfig is written to a side file first and published only when the cluster is ready.
	pendingAdmin := filepath.Join(o.dir, "."+adminKubeconfig)
	if err := writeKubeconfig(pendingAdmin, c.server, ca, "kubernetes-admin", []string{"system:masters"}); err != nil {
		return c, err
	}
	client, err := clientFor(pendingAdmin)
	if err != nil {
		return c, err
	}

	apiArgs := apiserverArgs(o.dir, etcdURL)
	if o.auditLog {
		extra, err := auditArgs(o.dir)
		if err != nil {
			return c, fmt.Errorf("audit log: %w", err)
		}
		apiArgs = append(apiArgs, extra...)
	}
	c.client = client
	c.api = startComponent("kube-apiserver", c.failed, func(ctx context.Context) error {
		return runAPIServer(ctx, apiArgs, listener)
	})
	c.parts = append(c.parts, c.api)
	if err := waitFor(ctx, client, c.failed, apiserverReady); err != nil {
		return c, err
	}
	klog.InfoS("testcluster: kube-apiserver ready", "after", time.Since(c.started))

	kcmArgs := controllerManagerArgs(o.dir)
	c.parts = append(c.parts, startComponent("kube-controller-manager", c.failed, func(ctx context.Context) error {
		return runControllerManager(ctx, kcmArgs)
	}))
	c.parts = append(c.parts, startComponent("simulated node", c.failed, func(ctx context.Context) error {
		return runKubelet(ctx, client, ca)
	}))
	if err := waitFor(ctx, client, c.failed, controllersReady...); err != nil {
		return c, err
	}
	klog.InfoS("testcluster: controllers ready", "after", time.Since(c.started))
	return c, os.Rename(pendingAdmin, filepath.Join(o.dir, adminKubeconfig))
}

// shutdown stops the components in reverse order, then etcd.
func (c *cluster) shutdown() {
	c.settleAPIServer()
	for i := len(c.parts) - 1; i >= 0; i-- {
		if err := c.parts[i].stop(shutdownTimeout); err != nil {
			klog.ErrorS(err, "testcluster: shutdown")
		}
	}
	if c.etcd != nil {
		c.etcd.Close()
	}
	klog.InfoS("testcluster: stopped")
}

func clientFor(kubeconfig string) (kubernetes.Interface, error) {
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return nil, err
	}
	cfg.QPS, cfg.Burst = 100, 200
	return kubernetes.NewForConfig(cfg)
}

// lockDir makes sure only one testcluster uses dir at a time.
func lockDir(dir string) (func(), error) {
	f, err := os.OpenFile(filepath.Join(dir, lockFileName), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, fmt.Errorf("another testcluster is running in %s", dir)
	}
	return func() { f.Close() }, nil
}

// settleAPIServer waits (a bounded time) for a still-starting kube-apiserver to
// finish its post-start hooks: cancelled midway, they end the process with
// klog.Fatal instead of a clean exit.
func (c *cluster) settleAPIServer() {
	if c.api == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	for ctx.Err() == nil {
		select {
		case <-c.api.exited:
			return
		default:
		}
		if apiserverReady.ok(ctx, c.client) == nil {
			return
		}
		time.Sleep(pollInterval)
	}
}
