package serve

import (
	"sync"

	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/run"
)

// clusters connects once per cluster for the life of the process: the
// client, its discovery and REST mapper are shared by every round. A
// failed connection is tried again next round.
type clusters struct {
	connect run.Connector
	mu      sync.Mutex
	m       map[string]*conn
}

type conn struct {
	c    *kube.Client
	name string
}

func newClusters(connect run.Connector) *clusters {
	return &clusters{connect: connect, m: map[string]*conn{}}
}

// Connector is the run.Connector of every round.
func (cs *clusters) Connector(p project.Project) (*kube.Client, string, error) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cn := cs.m[p.Cluster()]; cn != nil {
		return cn.c, cn.name, nil
	}
	c, name, err := cs.connect(p)
	if err != nil {
		return nil, name, err
	}
	cs.m[p.Cluster()] = &conn{c: c, name: name}
	return c, name, nil
}

// all are the clients made so far.
func (cs *clusters) all() []*kube.Client {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	var out []*kube.Client
	for _, cn := range cs.m {
		out = append(out, cn.c)
	}
	return out
}
