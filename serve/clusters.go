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
// (the identity's RBAC rules in a namespace, discovery) is kept from
// round to round until a run fails: a changed Role or a new CRD shows as
// a failed run (a preflight refusal, a 403, an unknown kind), and the
// next round starts afresh.
type clusters struct {
	connect run.Connector
	mu      sync.Mutex
	m       map[string]*conn
	round   map[string]*kube.Client // the copies in use, with their Memo
}

type conn struct {
	c    *kube.Client
	name string
}

func newClusters(connect run.Connector) *clusters {
	return &clusters{connect: connect, m: map[string]*conn{}, round: map[string]*kube.Client{}}
}

// newRound starts a round; after a round with a failed run, with fresh
// memos and REST mappers that read discovery again.
func (cs *clusters) newRound(afresh bool) {
	if !afresh {
		return
	}
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cs.round = map[string]*kube.Client{}
	for _, cn := range cs.m {
		cn.c.Mapper.Reset()
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
