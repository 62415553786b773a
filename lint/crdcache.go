package lint

import (
	"container/list"
	"sync"
)

// DefaultCRDCacheBytes bounds the compiled CRD validators one run keeps, by
// the size of their schemas' JSON: 256 MiB holds every CRD of the largest
// real sets (kubeflow's 96 CRDs are about 40 MiB) while a set of thousands
// of CRDs cannot grow without bound.
const DefaultCRDCacheBytes = 256 << 20

// crdCache keeps compiled CRD schemas, least recently used first out, so
// that their total weight (crdSchema.size) stays within max. The most
// recent one is always kept, however large.
type crdCache struct {
	mu   sync.Mutex
	max  int64
	used int64
	ll   *list.List // of *crdSchema, most recent first
	at   map[*crdSchema]*list.Element
}

func newCRDCache(max int64) *crdCache {
	if max <= 0 {
		max = DefaultCRDCacheBytes
	}
	return &crdCache{max: max, ll: list.New(), at: map[*crdSchema]*list.Element{}}
}

// touch marks s as just used.
func (c *crdCache) touch(s *crdSchema) {
	c.mu.Lock()
	if e, ok := c.at[s]; ok {
		c.ll.MoveToFront(e)
	}
	c.mu.Unlock()
}

// add puts the newly compiled s in the cache, evicting the least recently
// used schemas (dropping their compiled form) while over the bound.
func (c *crdCache) add(s *crdSchema) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.at[s]; ok {
		return
	}
	c.at[s] = c.ll.PushFront(s)
	c.used += s.size
	for c.used > c.max && c.ll.Len() > 1 {
		e := c.ll.Back()
		old := e.Value.(*crdSchema)
		c.ll.Remove(e)
		delete(c.at, old)
		c.used -= old.size
		old.compiled.Store(nil)
	}
}

// len is how many compiled schemas the cache holds.
func (c *crdCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ll.Len()
}
