package run

import (
	"context"
	"sync"

	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/project"
)

// Connector builds the client of a project's cluster (no request yet) and
// names the cluster for the report (the kubeconfig context). The client's
// Namespace is the context's; run sets each project's own.
type Connector func(p project.Project) (c *kube.Client, cluster string, err error)

// clusters connects once per cluster (Project.Cluster) and pings it once,
// so projects of one cluster share the client, its discovery and its
// REST mapper.
type clusters struct {
	connect Connector
	mu      sync.Mutex
	m       map[string]*cluster
}

type cluster struct {
	once, pinged sync.Once
	c            *kube.Client
	name         string
	err, pingErr error
	lookupOnce   sync.Once
	look         *plan.Lookup
	aheadOnce    sync.Once
	ahead        *plan.ReadAhead
}

func newClusters(connect Connector) *clusters {
	return &clusters{connect: connect, m: map[string]*cluster{}}
}

func (cs *clusters) get(p project.Project) *cluster {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cl := cs.m[p.Cluster()]
	if cl == nil {
		cl = &cluster{}
		cs.m[p.Cluster()] = cl
	}
	cl.once.Do(func() { cl.c, cl.name, cl.err = cs.connect(p) })
	return cl
}

// client is the project's client, with the project's namespace (the
// context's when it names none), and the cluster's name. It makes no
// request.
func (cs *clusters) client(p project.Project) (*kube.Client, string, error) {
	cl := cs.get(p)
	if cl.err != nil {
		return nil, p.Cluster(), cl.err
	}
	c := *cl.c
	if p.Namespace != "" {
		c.Namespace = p.Namespace
	}
	return &c, cl.name, nil
}

// ping checks once per cluster that it answers.
func (cs *clusters) ping(ctx context.Context, p project.Project) error {
	cl := cs.get(p)
	cl.pinged.Do(func() { cl.pingErr = cl.c.Ping(ctx) })
	return cl.pingErr
}

// lookup is what the charts' lookups of p read: one plan.Lookup per
// cluster and run, so projects of one cluster share its answers. It is
// nil when the cluster could not be connected (the project fails there).
func (cs *clusters) lookup(p project.Project) *plan.Lookup {
	cl := cs.get(p)
	if cl.err != nil {
		return nil
	}
	cl.lookupOnce.Do(func() { cl.look = plan.NewLookup(cl.c) })
	return cl.look
}
