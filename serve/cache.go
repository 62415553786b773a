package serve

import (
	"sync"

	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/project"
)

// objectCache keeps each project's loaded and linted objects (or its lint
// failure) for one revision: a round at the same revision reads no file.
// A new revision empties it. A chart is rendered at every round: its
// lookups read the cluster.
type objectCache struct {
	mu  sync.Mutex
	rev string
	m   map[string]*cached
}

type cached struct {
	once sync.Once
	objs []*manifest.Object
	err  error
}

// at returns the run.Options.Objects function for revision rev.
func (c *objectCache) at(rev string) func(project.Project, string, func() ([]*manifest.Object, error)) ([]*manifest.Object, error) {
	c.mu.Lock()
	if c.rev != rev || c.m == nil {
		c.rev, c.m = rev, map[string]*cached{}
	}
	m := c.m
	c.mu.Unlock()
	return func(p project.Project, namespace string, load func() ([]*manifest.Object, error)) ([]*manifest.Object, error) {
		if p.Kind == project.Helm {
			// A chart's objects depend on what its lookups read in the
			// cluster now, not only on the revision.
			return load()
		}
		key := p.Name + "\x00" + namespace
		c.mu.Lock()
		e := m[key]
		if e == nil {
			e = &cached{}
			m[key] = e
		}
		c.mu.Unlock()
		e.once.Do(func() { e.objs, e.err = load() })
		return e.objs, e.err
	}
}

// len is how many projects are kept (tests).
func (c *objectCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}
