package kube

import (
	"fmt"
	"net/http"
	"sync"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/tools/clientcmd"
)

// Client is a connection to one cluster.
type Client struct {
	Config  *rest.Config
	Dynamic dynamic.Interface
	// Metadata reads objects' metadata only (PartialObjectMetadata): what
	// kubeplan reads of objects it only needs to know exist, such as the
	// Secrets a pod template names, so their data never reaches it.
	Metadata  metadata.Interface
	Discovery discovery.DiscoveryInterface
	Mapper    meta.ResettableRESTMapper
	Namespace string // from -n, else the kubeconfig context, else "default"
	// Requests counts the requests made, by HTTP method (for tests that
	// prove a no-op makes no writes).
	Requests *RequestCounter
	// Memo keeps answers that hold for the whole run (the identity's rules
	// in a namespace), shared by the copies of a client that projects of
	// one cluster use.
	Memo *sync.Map
}

// DefaultRequestTimeout bounds each request unless --request-timeout says
// otherwise: a stalled connection is an error, not a hang.
const DefaultRequestTimeout = "30s"

// Flags are kubectl's connection flags (--kubeconfig, --context, -n,
// --request-timeout, ...), with --request-timeout defaulting to 30s.
func Flags() *genericclioptions.ConfigFlags {
	f := genericclioptions.NewConfigFlags(false)
	*f.Timeout = DefaultRequestTimeout
	return f
}

// New connects with the given flags. It makes no request yet.
func New(f *genericclioptions.ConfigFlags) (*Client, error) {
	cfg, err := f.ToRESTConfig()
	if err != nil {
		return nil, fmt.Errorf("loading kubeconfig: %w", err)
	}
	ns, _, err := f.ToRawKubeConfigLoader().Namespace()
	if err != nil {
		return nil, fmt.Errorf("reading the namespace from kubeconfig: %w", err)
	}
	return NewForConfig(cfg, ns)
}

// NewForConfig builds a client from a REST config.
func NewForConfig(cfg *rest.Config, namespace string) (*Client, error) {
	cfg = rest.CopyConfig(cfg)
	// kubeplan bounds its own concurrency; client-side throttling would only
	// add latency (the server has priority and fairness).
	cfg.QPS = -1
	cfg.Burst = 0
	// The server's warnings go to the request's context (CaptureWarnings),
	// never to client-go's logger or stderr.
	cfg.WarningHandler, cfg.WarningHandlerWithContext = nil, contextWarnings{}
	counter := &RequestCounter{}
	prev := cfg.WrapTransport
	cfg.WrapTransport = func(rt http.RoundTripper) http.RoundTripper {
		if prev != nil {
			rt = prev(rt)
		}
		return counter.wrap(rt)
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("creating client: %w", err)
	}
	md, err := metadata.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("creating metadata client: %w", err)
	}
	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("creating discovery client: %w", err)
	}
	mapper := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(dc))
	if namespace == "" {
		namespace = "default"
	}
	return &Client{Config: cfg, Dynamic: dyn, Metadata: md, Discovery: dc, Mapper: mapper, Namespace: namespace, Requests: counter, Memo: &sync.Map{}}, nil
}

// NewFromKubeconfig connects with the kubeconfig file at path, in namespace.
func NewFromKubeconfig(path, namespace string) (*Client, error) {
	cfg, err := clientcmd.BuildConfigFromFlags("", path)
	if err != nil {
		return nil, fmt.Errorf("loading kubeconfig %s: %w", path, err)
	}
	return NewForConfig(cfg, namespace)
}
