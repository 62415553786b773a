package serve

import (
	"sync"

	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/run"
)

// clusters connects once per cluster for the life of the process: the
// connection, its discovery and REST mapper are shared by every round. A
// failed connection is tried again next round. What a client memoizes
// for a run (the identity's RBAC rules) holds for one round only: each
// round gets copies with a fresh Memo, so a changed Role is seen.
type clusters struct {
	connect run.Connector
	mu      sync.Mutex
	m       map[string]*conn
	round   map[string]*kube.Client // this round's copies
}

type conn struct {
	c    *kube.Client
	name string
}

func newClusters(connect run.Connector) *clusters {
	return &clusters{connect: connect, m: map[string]*conn{}, round: map[string]*kube.Client{}}
}

// newRound starts a round: fresh memos and, after a round that had a
// failure, REST mappers that read discovery again (a CRD installed since
// is then found).
func (cs *clusters) newRound(resetMappers bool) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cs.round = map[string]*kube.Client{}
	if resetMappers {
		for _, cn := range cs.m {
			cn.c.Mapper.Reset()
		}
	}
}

// Connector is the run.Connector of every round.
func (cs *clusters) Connector(p project.Project) (*kube.Client, string, error) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cn := cs.m[p.Cluster()]
	if cn == nil {
		c, name, err := cs.connect(p)
		if err != nil {
			return nil, name, err
		}
		cn = &conn{c: c, name: name}
		cs.m[p.Cluster()] = cn
	}
	c := cs.round[p.Cluster()]
	if c == nil {
		cp := *cn.c
		cp.Memo = &sync.Map{}
		c = &cp
		cs.round[p.Cluster()] = c
	}
	return c, cn.name, nil
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
